/* SPDX-License-Identifier: MIT */
/* GNU-style quoting for messages. */
#ifndef FSH_CLI_QUOTE_H
#define FSH_CLI_QUOTE_H

/* GNU quote(): 'like this' with C escapes, in curly quotes (U+2018,
   U+2019) when the locale's codeset is UTF-8. */
const char *quote(const char *s);
/* GNU quotef(): shell-escaped, quoted only when needed (':' too). Both
   keep the multibyte characters the locale deems printable, keep errno,
   and return strings that live until exit (the last 8 are kept). */
const char *quotef(const char *s);

#endif
