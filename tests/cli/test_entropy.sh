#!/bin/sh
# SPDX-License-Identifier: MIT
# No OS entropy (the libnoentropy.so shim fails getrandom, getentropy and
# opening /dev/urandom): a run that needs a random draw fails with the cause
# and the errno text, exit 1 and no output; a run that draws nothing, or
# draws from --seed or --random-source, works as usual.
NAME=test_entropy
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
exec </dev/null
F=$FAIRSHUF

if ! SHIM=$(shim noentropy); then
    bad "no libnoentropy.so near $F (make build/tests/libnoentropy.so)"
    finish
    exit
fi
# The shim needs a dynamically linked binary (lib.sh: dynamic).
if ! F=$(dynamic); then
    bad "no dynamically linked fairshuf for the shim (make build/dyn/fairshuf)"
    finish
    exit $?
fi
# The ASan runtime must come first in the link order; the shim is harmless.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

# noent ARGS...: fairshuf under the shim; .out .err .rc in ne.*
noent() {
    LD_PRELOAD=$SHIM "$F" "$@" >ne.out 2>ne.err
    echo $? >ne.rc
}
# fails_eio DESC ARGS...: exit 1, no output, the OS source named with EIO.
fails_eio() {
    _d=$1
    shift
    # A subcommand's messages carry its name ("fairshuf deal: ").
    _pre=fairshuf
    [ "${1:-}" = deal ] && _pre="fairshuf deal"
    noent "$@"
    if [ "$(cat ne.rc)" = 1 ] && [ ! -s ne.out ] &&
        [ "$(cat ne.err)" = "$_pre: cannot read the OS random source: Input/output error" ]; then
        ok
    else
        bad "$_d: rc=$(cat ne.rc) err=$(cat ne.err)"
    fi
}
# works DESC EXPECTED ARGS...: exit 0, nothing on stderr, stdout EXPECTED
# (printf format).
works() {
    _d=$1
    # shellcheck disable=SC2059
    printf "$2" >want
    shift 2
    noent "$@"
    if [ "$(cat ne.rc)" = 0 ] && [ ! -s ne.err ] && cmp -s want ne.out; then
        ok
    else
        bad "$_d: rc=$(cat ne.rc) err=$(cat ne.err) out=$(od -c ne.out | head -n 2)"
    fi
}
# same_as_entropy DESC ARGS...: exit 0 and the same output as with entropy
# (for --seed and --random-source runs).
same_as_entropy() {
    _d=$1
    shift
    cat >sin
    "$F" "$@" <sin >want 2>/dev/null
    noent "$@" <sin
    if [ "$(cat ne.rc)" = 0 ] && [ ! -s ne.err ] && [ -s want ] && cmp -s want ne.out; then
        ok
    else
        bad "$_d: rc=$(cat ne.rc) err=$(cat ne.err)"
    fi
}

printf 'a\nb\nc\n' >in3
printf 'one\n' >in1
: >in0
seq 5000 >s5000
head -c 4096 /dev/urandom >rnd

# Draws needed: the cause and errno, not the seed-length refusal.
fails_eio "file" in3
fails_eio "stdin" <in3
fails_eio "-n 2 file" -n 2 in3
fails_eio "-n 1 stdin" -n 1 <in3
fails_eio "-r file" -r -n 3 in3
fails_eio "-e" -e a b
fails_eio "-n 1 -e" -n 1 -e a b
fails_eio "-i" -i 1-5
fails_eio "-i -n 1" -i 1-1000 -n 1
fails_eio "-r -i" -r -n 2 -i 1-2
fails_eio "scatter-sized input" s5000
fails_eio "deal" deal
fails_eio "deal -n 1" deal -n 1
fails_eio "deal -p" deal --poker
noent -o out in3
check "-o FILE not created" test ! -e out
FSH_SHIM_ERRNO=38 noent in3
check "errno kept (ENOSYS)" test "$(cat ne.err)" = \
    "fairshuf: cannot read the OS random source: Function not implemented"
check "never the reachability message" sh -c '! grep -q "seed too short\|not enough entropy" ne.err'

# Nothing to draw: no OS entropy needed.
works "-n 0" '' -n 0 in3
works "-n 0 missing file" '' -n 0 nosuchfile
works "-n 0 -e" '' -n 0 -e a b
works "-n 0 -i" '' -n 0 -i 1-9
works "-i 1-1" '1\n' -i 1-1
works "-i 7-6 (empty)" '' -i 7-6
works "-r -n 3 -i 4-4" '4\n4\n4\n' -r -n 3 -i 4-4
works "-e one" 'x\n' -e x
works "-e none" '' -e
works "-r -n 2 -e one" 'x\nx\n' -r -n 2 -e x
works "-n 5 -e one" 'x\n' -n 5 -e x
works "one-line file" 'one\n' in1
works "one-line stdin" 'one\n' <in1
works "one line, -n 3" 'one\n' -n 3 in1
works "one line, -n 3, stdin" 'one\n' -n 3 <in1
works "one line, -r -n 2" 'one\none\n' -r -n 2 in1
works "empty file" '' in0
works "empty stdin" '' </dev/null
works "empty, -n 2" '' -n 2 </dev/null
works "header only" 'one\n' --header=1 in1
noent -n 0 -o out in3
check "-n 0 -o FILE created" test "$(cat ne.rc)" = 0 -a -f out -a ! -s out

# Seeded and --random-source runs draw from their own source.
same_as_entropy "--seed" --seed=abc in3
same_as_entropy "--seed stdin" --seed=abc <in3
same_as_entropy "--seed -n 2" --seed=abc -n 2 <in3
same_as_entropy "--seed -e" --seed=abc -e a b c d
same_as_entropy "--seed -i" --seed=abc -i 1-100
same_as_entropy "--seed -i -n" --seed=abc -i 1-1000000 -n 5
same_as_entropy "--seed -r" --seed=abc -r -n 10 in3
same_as_entropy "--seed scatter-sized" --seed=abc s5000
same_as_entropy "--random-source" --random-source=rnd in3
same_as_entropy "--random-source -i" --random-source=rnd -i 1-50
same_as_entropy "--random-source -i -n" --random-source=rnd -i 1-1000000 -n 5
same_as_entropy "--random-source -n stdin" --random-source=rnd -n 2 <in3
same_as_entropy "deal --seed" deal --seed=abc
same_as_entropy "deal --seed -n 5 -p" deal --seed=abc -n 5 -p

finish
