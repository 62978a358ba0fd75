#!/bin/sh
# SPDX-License-Identifier: MIT
# Drop-in: invoked under any name but "fairshuf" (installed as shuf), the
# command is GNU shuf: no subcommands ("shuf deal" shuffles a file named
# deal), GNU's first --version word, argv[0] as given in messages, and
# quotes that follow the locale (U+2018/U+2019 in UTF-8 locales) as GNU's
# do. Invoked as fairshuf, deal's messages follow the same rules.
NAME=test_dropin
. "$(dirname "$0")/lib.sh"
cd "$T/w" || exit 1
exec </dev/null
F=$FAIRSHUF

printf 'x\ny\nz\n' >deal
seq 20 >s20
head -c 64 /dev/urandom >rs
: >empty

# --version and --help under the name shuf (and any other name).
mine --version >v.out
check "shuf --version: first line" test "$(head -n 1 v.out | sed 's/[0-9.]*$//')" = "shuf (fairshuf) "
ln -s "$F" gshuf
./gshuf --version >v.out
check "gshuf --version: first line" test "$(head -n 1 v.out | cut -c 1-16)" = "shuf (fairshuf) "
"$F" --version >v.out
check "fairshuf --version: first line" test "$(head -n 1 v.out | cut -c 1-9)" = "fairshuf "
mine --help >h.out
check "shuf --help: no subcommands" sh -c '! grep -q deal h.out'
if [ "$have_gnu" = 1 ]; then
    gnu --help >gh.out
    check "shuf --help: usage line as GNU" test "$(head -n 3 h.out)" = "$(head -n 3 gh.out)"
fi
"$F" --help >h.out
check "fairshuf --help: lists deal" grep -q 'fairshuf deal' h.out

# "deal" is a file to GNU shuf, in every position.
gcheck "shuf deal" same_all --random-source=rs deal
gcheck "shuf -n 2 deal" same_all --random-source=rs -n 2 deal
gcheck "shuf deal -n 2" same_all --random-source=rs deal -n 2
gcheck "shuf -e deal" same_all --random-source=rs -e deal x
gcheck "shuf deal --poker" same_errors deal --poker
gcheck "shuf deal deal" same_errors deal deal
run mine m --random-source=rs deal
check "shuf deal: a permutation of the file" is_perm_of deal m.out
./gshuf --random-source=rs deal >g.out 2>&1
check "gshuf deal: a permutation of the file" is_perm_of deal g.out
IN=deal run "$F" f deal --seed=x -n 3
check "fairshuf deal: the subcommand" test "$(cat f.rc)" = 0 -a "$(wc -w <f.out)" = 3

# Messages in the C and a UTF-8 locale, exit codes: as GNU's, byte for byte.
long=99999999999999999999
for L in C C.UTF-8; do
    LC_ALL=$L
    export LC_ALL
    for args in "nosuchfile" "nosuch-$(printf '\303\251')" "it's" "-i 5-3" "-i 1-x" "-i 1-" "-i $long-1" "-n 5x" \
        "-n $(printf "a'b\342\200\231c\\\\\001\377\303\251")" \
        "-n $(printf '\342\200\230q\342\200\231')" "a b" "--bogus" "-x" \
        "--he" "-e -i 1-3" "-i 1-3 -i 1-3" "--random-source=empty -i 1-5" \
        "--random-source=nosuch -i 1-5" "-o /nonexist/x -e a" "-r empty" \
        "-o a -o b" "-n"; do
        # shellcheck disable=SC2086
        gcheck "$L: $args" same_errors $args
    done
    gcheck "$L: -n with spaces" same_errors -n "a b"
    gcheck "$L: missing file with a newline" same_errors "$(printf 'a\nb')"
    gcheck "$L: missing file with a tab" same_errors "$(printf 'x\ty')"
    gcheck "$L: missing file, invalid UTF-8" same_errors "$(printf 'x\377y')"
done
LC_ALL=C
export LC_ALL

# argv[0] exactly as given, as GNU.
if [ "$have_gnu" = 1 ]; then
    "$T/mine/shuf" nosuchfile 2>m.err
    "$T/gnu/shuf" nosuchfile 2>g.err
    check "full path: name as given" test "$(sed "s|$T/mine/||" m.err)" = "$(sed "s|$T/gnu/||" g.err)"
    check "full path: the path itself" grep -q "^$T/mine/shuf: nosuchfile:" m.err
fi
"$F" nosuchfile 2>f.err
check "fairshuf by path: fairshuf" test "$(cat f.err)" = "fairshuf: nosuchfile: No such file or directory"

# deal: one prefix, GNU-style quoting, --version, write errors, -n 0.
dcheck() {
    _d=$1
    _rc=$2
    _err=$3
    shift 3
    "$F" deal "$@" >d.out 2>d.err
    _got=$?
    if [ "$_got" = "$_rc" ] && [ "$(cat d.err)" = "$_err" ]; then
        ok
    else
        bad "$_d: rc=$_got err=$(cat d.err)"
    fi
}
try="Try 'fairshuf deal --help' for more information."
dcheck "deal --bogus" 1 "fairshuf deal: unrecognized option '--bogus'
$try" --bogus
dcheck "deal -x" 1 "fairshuf deal: invalid option -- 'x'
$try" -x
dcheck "deal -n" 1 "fairshuf deal: option requires an argument -- 'n'
$try" -n
dcheck "deal -n 53" 1 "fairshuf deal: invalid card count: '53' (0 to 52)" -n 53
dcheck "deal -n -1" 1 "fairshuf deal: invalid card count: '-1' (0 to 52)" -n -1
dcheck "deal extra operand" 1 "fairshuf deal: extra operand 'x'
$try" x
LC_ALL=C.UTF-8
dcheck "deal -n x, UTF-8" 1 "fairshuf deal: invalid card count: $(printf '\342\200\230x\342\200\231') (0 to 52)" -n x
LC_ALL=C
dcheck "deal --version" 0 "" --version
check "deal --version: first line" test "$(head -n 1 d.out | cut -c 1-9)" = "fairshuf "
dcheck "deal --help" 0 "" --help
check "deal --help: usage" grep -q '^Usage: fairshuf deal' d.out
"$F" deal --help >/dev/full 2>d.err
check "deal --help >/dev/full: exit 1" test $? = 1
check "deal --help >/dev/full: message" test "$(cat d.err)" = "fairshuf deal: write error: No space left on device"
"$F" deal --seed=x >/dev/full 2>d.err
check "deal >/dev/full: exit 1" test $? = 1
check "deal >/dev/full: message" test "$(cat d.err)" = "fairshuf deal: write error: No space left on device"
dcheck "deal -n 0: nothing, like shuf -n 0" 0 "" -n 0
check "deal -n 0: no output" test ! -s d.out
dcheck "deal --cards=0" 0 "" --cards=0
dcheck "deal -n 52" 0 "" -n 52 --seed=x
check "deal -n 52: four rows of 13" test "$(wc -w <d.out) $(wc -l <d.out)" = "52 4"

finish
