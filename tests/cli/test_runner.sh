#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/run.sh itself, on a tree of fake test scripts: with FSH_JOBS=2 the
# programs start longest first by their "run.sh: weight N" line (equal
# weights in the listed order), a "run.sh: alone" program starts after
# every other has ended, the totals add up every summary line, and a
# program without one counts as a failure. And lib.sh's FSH_CHECK_TIMES
# log: one line a check, with its time and description. About 3 s.
NAME=test_runner
. "$(dirname "$0")/lib.sh"
RUN=$(cd "$(dirname "$0")/.." && pwd)/run.sh
LIB=$(cd "$(dirname "$0")" && pwd)/lib.sh
cd "$T/w" || exit 1
mkdir -p tree/tests/cli tree/build/tests
log=$PWD/starts
# fake NAME SECONDS MARKER: a script that logs its start and end, sleeps,
# and prints its summary line (MARKER: a run.sh line, or nothing).
fake() {
    {
        echo "# $3"
        echo "echo \"start $1 \$(date +%s.%N)\" >>'$log'"
        echo "sleep $2"
        echo "echo \"end $1 \$(date +%s.%N)\" >>'$log'"
        echo "echo 'test_$1: 1 passed, 0 failed, 0 skipped'"
    } >"tree/tests/cli/test_$1.sh"
}
# In the listed (name) order: a_zero and b_zero carry no weight, c_w10
# weighs 10, d_w30 30, e_w20 20, f_alone is alone. Longest first: d_w30
# and e_w20 together; e_w20 ends at 0.4 s and c_w10 takes its place;
# d_w30 ends at 2 s, then a_zero, then b_zero; f_alone after them all.
fake a_zero 0.1 ""
fake b_zero 0.1 ""
fake c_w10 1.5 "run.sh: weight 10"
fake d_w30 2.0 "run.sh: weight 30"
fake e_w20 0.4 "run.sh: weight 20"
fake f_alone 0.1 "run.sh: alone"
(cd tree && FSH_JOBS=2 sh "$RUN" build "$FAIRSHUF") >run.out 2>run.err
echo $? >run.rc
order=$(sort -k3,3n "$log" | awk '$1 == "start" { printf "%s ", $2 }')
check "longest first, then the listed order, the alone one last ($order)" \
    sh -c 'case "$1" in
        "d_w30 e_w20 c_w10 a_zero b_zero f_alone " | \
        "e_w20 d_w30 c_w10 a_zero b_zero f_alone ") exit 0 ;;
        *) exit 1 ;; esac' sh "$order"
check "the alone program starts after every other has ended" awk '
    $1 == "start" && $2 == "f_alone" { s = $3 }
    $1 == "end" && $2 != "f_alone" && $3 > last { last = $3 }
    END { exit !(s > 0 && s >= last) }' "$log"
check "totals: 6 checks passed (6 programs), exit 0" sh -c \
    '[ "$(cat run.rc)" = 0 ] && tail -n 1 run.out | grep -qx "6 checks passed, 0 failed, 0 skipped (6 programs)"'
# A program without a summary line fails the run.
printf 'echo nothing\n' >tree/tests/cli/test_g_mute.sh
(cd tree && FSH_JOBS=2 sh "$RUN" build "$FAIRSHUF") >run2.out 2>run2.err
echo $? >run2.rc
check "a program without a summary line: one failure, exit 1" sh -c \
    '[ "$(cat run2.rc)" = 1 ] && tail -n 1 run2.out | grep -qx "6 checks passed, 1 failed, 0 skipped (7 programs)" && grep -q "test_g_mute: no summary line" run2.err'

# FSH_CHECK_TIMES: one line a check (passed, failed or skipped), each
# "SECONDS NAME: DESCRIPTION", the seconds since the check before.
cat >times.sh <<EOF
NAME=t_times
. '$LIB'
check "first" sleep 0.3
check "second" false
skipped "third"
finish
EOF
FSH_CHECK_TIMES=$PWD/times.log sh times.sh >times.out 2>times.err
check "FSH_CHECK_TIMES: a line per check, with its time" awk '
    NR == 1 { ok = ($2 == "t_times:" && $3 == "first" && $1 >= 0.3) }
    NR == 2 { ok = ok && ($3 == "FAIL:" && $4 == "second" && $1 < 0.3) }
    NR == 3 { ok = ok && ($3 == "skip:" && $4 == "third") }
    END { exit !(ok && NR == 3) }' times.log
FSH_CHECK_TIMES= sh times.sh >times2.out 2>times2.err
check "without FSH_CHECK_TIMES: no log, the same summary" sh -c \
    'cmp -s times.out times2.out && [ "$(wc -l <times.log)" = 3 ]'
finish
