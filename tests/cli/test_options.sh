#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh: weight 11 (its usual wall time in s: longest first)
# Options, usage errors and messages, compared with GNU shuf 9.1 case by case
# (exit status and stderr byte for byte; stdout as a multiset when random).
NAME=test_options
. "$(dirname "$0")/lib.sh"
MAN=$(cd "$(dirname "$0")/../.." && pwd)/docs/fairshuf.1

cd "$T/w" || exit 1
printf 'a\nb\nc\n' >in3
seq 1000 >s1000
printf 'x\n' >deal
: >empty0
mkdir adir

# Usage and argument errors (SHUF-NOTES section 2). Errors come in GNU's
# order: an ambiguous abbreviation (--r, --he, our --s) only when getopt
# reaches it, after an earlier option's error, --help or --version.
while IFS= read -r args; do
    # shellcheck disable=SC2086
    gcheck "errors: $args" same_errors $args
done <<'CASES'
-i 5-3
-i 1-x
-i 1-
-i x-3
-i 5
-i -5
-i 1--5
-i 1-2-3
-i 99999999999999999999-3
-i 1-99999999999999999999
-i 99999999999999999999x-3
-i 0-18446744073709551615
-i 1-3 -i 1-3
-i 1-3 -i 2-4
-n abc
-n -1 in3
-n 2k in3
-n 999999999999999999999x in3
-n 0x10 in3
-e -i 1-3
-i1-3 -e
in3 in3
in3 in3 in3
-i 1-3 x
-i 1-3 -- -x
--bogus
-x
-n
-i
-o
--he
--r
--head
--rand
--output
--rep=1
--echo=1
--random-source
-o a -o b
--random-source=a --random-source=b
-i 5-3 --r
-n abc --he
-i 1-3 -i 2-4 --h=1
-e a -i 1-3 --r
-x --r
--bogus --he
--help --r
--version --he
--r --help
-i 5-3 --s=1
--he=3 -i 5-3
-r -o adir empty0
-r -e -o adir
-r -i 1-0 -o adir
-r -o nodir/x empty0
-r -z -o adir
missing
adir
-n 1 adir
-n 0 missing
-r -n 0 missing
-r
-e -r
-i 4-3 -r
-r -n 3 -i 4-3
-r -o adir --random-source=/dev/zero empty0
-r -n 5 -e -o nodir/x --random-source=/dev/zero
-r -i 1-0 -o adir --random-source=/dev/zero
in3 -o /nonexistent/dir/x
in3 -o adir
--random-source=/nonexistent in3
-n0 -r --random-source=/nonexistent in3
in3 --random-source=adir
in3 --random-source=/dev/null
-i 1-3 --random-source=/dev/null
-e --random-source=/nonexistent
-e a --random-source=/dev/null
-i 1-1 --random-source=/dev/null
CASES

# The stand-in for an ambiguous abbreviation is no option of ours.
gcheck "errors: --\\001amb" same_errors "$(printf -- '--\001amb')" -e a
gcheck "errors: --\\001ambiguous=x" same_errors "$(printf -- '--\001ambiguous=x')" -e a

# Odd names and values are quoted the GNU way (quote() and quotef()).
for name in 'a b' "a'b" 'a:b' 'a$b' '~x' 'x~' '#x' '{' '}' 'a{' 'a*' 'a=b' \
    'a?b' 'a\b' 'a@b' 'a,b]%+' "it's#x" "#it's" "a'b*" "a'b c" '' '-' \
    "$(printf 'a\nb')" "$(printf 'a\tb')" "$(printf '\351')" \
    "$(printf 'x\001y')" "$(printf "a\n'b")" "$(printf '\177')"; do
    [ "$name" = - ] && continue
    gcheck "quotef: $name" same_errors -- "$name"
    gcheck "quote -n: $name" same_errors -n "$name"
    gcheck "quote -i: $name" same_errors -i "$name"
    gcheck "extra operand: $name" same_errors in3 "$name"
done
gcheck "random-source name" same_errors in3 --random-source="a b'c"
gcheck "random-source name colon" same_errors in3 --random-source="a:b"

# Valid syntax: same multiset of output lines.
while IFS= read -r args; do
    # shellcheck disable=SC2086
    gcheck "multiset: $args" same_multiset $args
done <<'CASES'
in3
-
-e a b c
-e
-e a a a
a b -e
-e -- -n -x
-i 1-10
-i 01-03
-i +1-+3
-i 4-3
-i 7-7
-i 18446744073709551610-18446744073709551615
-i 1-3 -n 99999999999999999999999
-i 1-3 -n 18446744073709551615
--ec x y z
-i1-3
-n 1000 in3
-- in3
-- -
CASES
while IFS= read -r args; do
    # shellcheck disable=SC2086
    gcheck "count: $args" same_count $args
done <<'CASES'
-i 1-3 -n 2 -n 5
-n 2 s1000 -r
-rn3 -i 1-2
--head=2 -i 1-10
--head-c=2 --inp=1-10
-n2 in3
-n 2 in3
--rep --head-count=5 -e x y
-n 0 in3
-n 0 -e a b
-r -n 7 -e a
-r -n 100 -i 1-18446744073709551615
-n 5 -i 1-18446744073709551615
-n 5 -i 18446744073709551614-18446744073709551615
CASES
MSZ=-z gcheck "multiset -z -e" same_multiset -z -e a b c
MSZ=-z gcheck "count -zn2" same_count -zn2 -e a b c
MSZ=-z gcheck "multiset -z -i" same_multiset -z -i 1-5
MSZ=-z gcheck "multiset -z file" same_multiset -z in3
IN=$T/w/in3 gcheck "multiset stdin" same_multiset
IN=$T/w/in3 gcheck "file operand ignores stdin" same_multiset s1000
gcheck "-e keeps newlines inside operands" same_multiset -e "$(printf 'a\nb')" c
gcheck "exactly -i 1-1" same_all -i 1-1
gcheck "-e single" same_all -e only
IN=closed gcheck "stdin closed, file given" same_multiset in3
IN=closed gcheck "stdin closed, -n file given" same_count -n 1 in3
IN=closed gcheck "stdin closed, -n 0" same_errors -n 0
IN=closed gcheck "stdin closed, read it" same_errors
# With stdin or stdout closed, GNU's freopen of FILE over it fails with
# EBADF whatever the open's error, and GNU reports that.
IN=closed gcheck "stdin closed, missing file" same_errors missing
IN=closed gcheck "stdin closed, /dev/stdin" same_errors /dev/stdin
IN=closed gcheck "stdin closed, a directory" same_errors adir
OUT=closed gcheck "stdout closed, -o in a missing directory" same_errors -o nodir/x -e a
OUT=closed gcheck "stdout closed, -o a directory" same_errors -o adir -e a
IN=closed gcheck "stdin closed, -n 1" same_errors -n 1
IN=closed gcheck "stdin closed, -e" same_all -e a

# -o FILE is created even when the output is empty (GNU truncates it).
mine -n 0 -o out0 missing
check "-n 0 -o creates file" test -f out0 -a ! -s out0
echo old >out1
mine -e -o out1
check "-e -o truncates" test -f out1 -a ! -s out1
mine -o out2 -o out2 -e z
check "same -o twice" test "$(cat out2)" = z

# --help / --version: stdout, exit 0; help documents every option and the
# subcommand rule.
mine --help >help.txt 2>help.err
check "--help exit 0" test $? = 0
check "--help stderr empty" test ! -s help.err
for opt in --echo --input-range --head-count --output --random-source \
    --repeat --zero-terminated --seed --generator --help --version; do
    check "--help mentions $opt" grep -q -e "$opt" help.txt
done
# Subcommands exist only under the name fairshuf (see test_dropin.sh).
"$FAIRSHUF" --help >fhelp.txt
for opt in ./deal deal; do
    check "fairshuf --help mentions $opt" grep -q -e "$opt" fhelp.txt
done
sed 's/\\-/-/g' "$MAN" >man.txt
for opt in echo input-range head-count output random-source repeat \
    zero-terminated seed generator help version; do
    check "man page documents --$opt" grep -q -e "--$opt" man.txt
done
check "man page: subcommand rule" grep -q 'fairshuf ./deal' man.txt
check "--help usage line" grep -q '^Usage: shuf \[OPTION\]\.\.\. \[FILE\]' help.txt
mine --version >ver.txt 2>&1
check "--version exit 0" test $? = 0
check "--version names fairshuf" grep -q fairshuf ver.txt
gcheck "--hel abbreviation" same_errors --hel
gcheck "--v abbreviation" same_errors --v
gcheck "--help to /dev/full" same_errors --help >/dev/full
gcheck "--version to /dev/full" same_errors --version >/dev/full

# Our own option: --seed.
run mine "$T/m" --seed=a --seed=b -i 1-3
check "two different seeds" grep -q 'multiple seeds specified' "$T/m.err"
run mine "$T/m" --seed=a --random-source=/dev/zero -i 1-3
check "--seed with --random-source" test "$(head -n 1 "$T/m.err")" = "shuf: cannot combine --seed and --random-source"
check "--seed with --random-source exit" test "$(cat "$T/m.rc")" = 1
run mine "$T/m" --seed=a --seed=a -i 1-3
check "same seed twice" test "$(cat "$T/m.rc")" = 0

# Our own option: --generator (which generator each name keys is
# tests/test_cli_rng.c). Every name shuffles, abbreviated too; anything else,
# or with --seed or --random-source, is refused with status 1.
for g in chacha8 chacha12 chacha20; do
    run mine "$T/m" --generator=$g s1000
    check "--generator=$g exit" test "$(cat "$T/m.rc")" = 0
    check "--generator=$g permutes" is_perm_of s1000 "$T/m.out"
done
run mine "$T/m" --gen chacha20 -i 1-3
check "--gen abbreviation" test "$(cat "$T/m.rc")" = 0
run mine "$T/m" --generator=xoshiro -i 1-3
check "--generator=xoshiro refused" test "$(cat "$T/m.err")" = "shuf: invalid generator: 'xoshiro' (chacha8, chacha12 or chacha20)"
check "--generator=xoshiro exit" test "$(cat "$T/m.rc")" = 1
check "--generator=xoshiro no output" test ! -s "$T/m.out"
run mine "$T/m" --generator=chacha20 --seed=a -i 1-3
check "--generator with --seed" test "$(head -n 1 "$T/m.err")" = "shuf: cannot combine --generator and --seed"
check "--generator with --seed exit" test "$(cat "$T/m.rc")" = 1
run mine "$T/m" --random-source=/dev/zero --generator=chacha20 -i 1-3
check "--generator with --random-source" test "$(head -n 1 "$T/m.err")" = "shuf: cannot combine --generator and --random-source"
run mine "$T/m" --generator=chacha20 --generator=chacha8 -i 1-3
check "two different generators" test "$(cat "$T/m.err")" = "shuf: multiple generators specified"
run mine "$T/m" --generator=chacha20 --generator=chacha20 -i 1-3
check "same generator twice" test "$(cat "$T/m.rc")" = 0

# Our other options that take a value: a second, different value is refused
# ("multiple ... specified", exit 1, nothing written, no Try line), as GNU
# refuses a second -o; the same value again is accepted (numbers by value,
# sizes in bytes, names byte for byte). The last value was taken silently.
mkdir -p tdir sh
while IFS='|' read -r what args; do
    # shellcheck disable=SC2086
    run mine "$T/m" $args s1000
    check "two different $what" test "$(cat "$T/m.err")" = "shuf: multiple $what specified"
    check "two different $what: exit 1, no output" sh -c "test \"\$(cat '$T/m.rc')\" = 1 && test ! -s '$T/m.out'"
done <<'CASES'
memory sizes|--memory=1G --memory=2G
memory sizes|--memory=1048576 --memory=1048577b
temporary directories|-T tdir -T /tmp
temporary directories|--temporary-directory=tdir -T tdir/
thread counts|--threads=1 --threads=2
header line counts|--header=1 --header=0
shard counts|--shards=2 --shards=3 --output-prefix=sh/p
output prefixes|--shards=2 --output-prefix=sh/p --output-prefix=sh/q
CASES
check "two different prefixes: no shard written" test -z "$(ls sh)"
while IFS='|' read -r once again; do
    # shellcheck disable=SC2086
    run mine "$T/m" --seed=x $once $again s1000
    check "same value twice: $once $again" test "$(cat "$T/m.rc")" = 0
    check "same value twice: $once $again: no message" test ! -s "$T/m.err"
    # shellcheck disable=SC2086
    mine --seed=x $once s1000 >once.out 2>&1
    check "same value twice: $once $again: as given once" cmp -s once.out "$T/m.out"
done <<'CASES'
--memory=1G|--memory=1024M
--memory=2|--memory=2048b
--threads=2|--threads=02
-T tdir|--temporary-directory=tdir
--header=3|--header=+3
CASES
run mine "$T/m" --seed=x --shards=2 --shards=2 --output-prefix=sh/p --output-prefix=sh/p s1000
check "same shards and prefix twice" test "$(cat "$T/m.rc")" = 0 -a -s sh/p0 -a -s sh/p1
rm -f sh/p0 sh/p1
# An invalid second value is reported as invalid, whatever the first.
run mine "$T/m" --threads=2 --threads=17 s1000
check "invalid second value: its own message" test "$(cat "$T/m.err")" = "shuf: invalid thread count: '17' (1 to 16)"
# --progress and --no-progress are one switch: the last one given wins, as
# GNU's contradicting switches (rm -f -i), so a --progress in an alias can be
# turned off.
run mine "$T/m" --progress --no-progress s1000
check "--progress --no-progress: no bar" test "$(cat "$T/m.rc")" = 0 -a ! -s "$T/m.err"
run mine "$T/m" --no-progress --progress s1000
check "--no-progress --progress: a bar" grep -q 'write' "$T/m.err"

# Subcommands only as the first argument; a file called deal is reachable.
"$FAIRSHUF" deal --poker >deal.out 2>&1
check "deal subcommand" test "$(wc -w <deal.out)" = 52
(cd "$T/w" && "$FAIRSHUF" ./deal >d1.out 2>&1)
check "./deal is a file" test "$(cat d1.out)" = x
(cd "$T/w" && "$FAIRSHUF" -- deal >d2.out 2>&1)
check "-- deal is a file" test "$(cat d2.out)" = x
(cd "$T/w" && "$FAIRSHUF" -n 1 deal >d3.out 2>&1)
check "deal after an option is a file" test "$(cat d3.out)" = x

# Program name: "fairshuf:" by default, "shuf:" through a symlink.
"$FAIRSHUF" -i 5-3 2>name.err
check "prefix fairshuf" test "$(cat name.err)" = "fairshuf: invalid input range: '5-3'"
mine -i 5-3 2>name2.err
check "prefix shuf" test "$(cat name2.err)" = "shuf: invalid input range: '5-3'"

finish
