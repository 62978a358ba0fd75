/* SPDX-License-Identifier: MIT */
/* Status strings: the one table of messages. */
#include "common/common.h"

#define FSH_ERRORS(X)                                                          \
    X(FSH_OK, "success")                                                       \
    X(FSH_EINVAL, "invalid argument")                                          \
    X(FSH_ENOMEM, "out of memory")                                             \
    X(FSH_EENTROPY, "cannot reach every outcome: seed too short, or beyond "    \
                    "the hardware entropy cap")                                \
    X(FSH_EEMPTY, "nothing left to deal or draw")                                            \
    X(FSH_ECALLBACK, "random callback returned a value out of range")          \
    X(FSH_ESYSRAND, "OS random source unavailable")                          \
    X(FSH_ESEED, "server seed too short for this game")                       \
    X(FSH_ENOHWRAND, "no hardware entropy source for an operation beyond 256 bits")

const char *fsh_strerror(int status)
{
    switch (status) {
#define CASE(code, msg)                                                        \
    case code:                                                                 \
        return msg;
        FSH_ERRORS(CASE)
#undef CASE
    default:
        return "unknown error";
    }
}

unsigned fsh_version_number(void)
{
    return FSH_VERSION_NUMBER;
}

#define FSH_STR_(x) #x
#define FSH_STR(x) FSH_STR_(x)

const char *fsh_version_string(void)
{
    return FSH_STR(FSH_VERSION_MAJOR) "." FSH_STR(FSH_VERSION_MINOR) "." FSH_STR(
        FSH_VERSION_PATCH);
}
