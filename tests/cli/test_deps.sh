#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/deps.sh (make run, make check) against a fake machine: a PATH of
# stub commands (apt-get and npm log what they are asked, id says root or
# not, sudo works or not, cc fails on <sodium.h> when told) and a fake root
# (FSH_DEPS_ROOT) for the files it looks for by path. It must ask apt-get
# for what is missing and nothing else (the whole list asked for Debian's
# npm, which a Node.js from elsewhere conflicts with, and apt-get then
# installed nothing), leave a complete machine alone, print the command to
# run when it cannot install, and fail when an install fails.
NAME=test_deps
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
B=$T/b R=$T/r P=$T/p

# stub NAME BODY: a command in the fake PATH.
stub() {
    printf '#!/bin/sh\nPATH=/usr/bin:/bin\n%s\n' "$2" >"$B/$1"
    chmod +x "$B/$1"
}
# machine: every dependency there, root, apt-get and sudo that work.
machine() {
    rm -rf "$B" "$R" "$P" "$T/apt.log" "$T/npm.log" "$T/apt.fail" "$T/npm.fail" "$T/nosodium"
    mkdir -p "$B" "$R/usr/bin" "$P/tests/fair/node_modules/playwright-core"
    : >"$P/tests/fair/node_modules/playwright-core/package.json"
    for c in g++ make pkg-config node mpicc mpirun python3 clang; do stub "$c" 'exit 0'; done
    stub cc "if grep -q sodium.h && [ -f '$T/nosodium' ]; then exit 1; fi; exit 0"
    stub id 'echo 0'
    # sudo runs the fake PATH's command, never the machine's apt-get.
    stub sudo "[ \"\$1\" = -n ] && shift; [ \"\$1\" = true ] && exit 0
c=\$1; shift; exec '$B'/\"\$c\" \"\$@\""
    stub apt-get "echo \"\$*\" >>'$T/apt.log'
[ \"\$1\" = install ] && [ -f '$T/apt.fail' ] && exit 100
exit 0"
    stub npm "echo \"\$*\" >>'$T/npm.log'
[ \"\$1\" = install ] && [ -f '$T/npm.fail' ] && exit 1
exit 0"
    for f in python3 chromium time; do
        printf '#!/bin/sh\nexit 0\n' >"$R/usr/bin/$f"
        chmod +x "$R/usr/bin/$f"
    done
}
# deps [ARGS]: scripts/deps.sh from the fake project directory; its status
# in rc, its output in out and err.
deps() {
    (cd "$P" && env -i PATH="$B" HOME="$T" FSH_DEPS_ROOT="$R" \
        /bin/sh "$top/scripts/deps.sh" "$@") >"$T/out" 2>"$T/err"
    rc=$?
}
# asked WORDS: apt-get was updated, then asked to install exactly WORDS.
asked() {
    printf 'update -qq\ninstall -y -qq %s\n' "$1" | cmp -s - "$T/apt.log" || {
        echo "  apt-get was asked:" >&2
        sed 's/^/    /' "$T/apt.log" >&2 2>/dev/null
        return 1
    }
}
untouched() { [ ! -e "$T/apt.log" ]; }

# --- A complete machine: nothing asked, status 0, nothing said.
machine
deps --test
check "complete machine, --test: status 0" test "$rc" = 0
check "complete machine, --test: apt-get not called" untouched
check "complete machine, --test: npm not called" test ! -e "$T/npm.log"
check "complete machine, --test: nothing on stderr" test ! -s "$T/err"
deps
check "complete machine: status 0, apt-get not called" sh -c "[ $rc = 0 ] && [ ! -e '$T/apt.log' ]"

# --- One thing missing: only it is asked for.
machine
rm "$B/npm"
deps --test
check "npm missing: only npm asked for" asked npm
check "npm missing: status 0 once installed" test "$rc" = 0
check "npm missing: says what is missing" grep -qx 'deps: missing: npm' "$T/err"
machine
rm "$B/pkg-config"
deps
check "pkg-config missing: only pkg-config asked for" asked pkg-config
machine
rm "$R/usr/bin/time"
deps
check "/usr/bin/time missing: only time asked for" asked time
machine
: >"$T/nosodium"
deps
check "sodium.h missing: only libsodium-dev asked for" asked libsodium-dev
machine
rm "$B/g++" "$B/make"
deps
check "g++ and make missing: both asked for" asked "g++ make"
machine
rm "$B/mpirun"
deps --test
check "mpirun missing: Open MPI asked for" asked "openmpi-bin libopenmpi-dev"
machine
printf '#!/bin/sh\nexit 1\n' >"$R/usr/bin/python3"
rm "$R/usr/bin/chromium"
deps --test
check "Python modules and chromium missing: those asked for, in order" \
    asked "python3-dev python3-numpy python3-pytest python3-setuptools python3-pip chromium"
machine
rm "$B/clang"
deps --fuzz
check "--fuzz without clang: clang and its runtime asked for" asked "clang libclang-rt-14-dev"

# --- What only the tests need is not asked for without --test.
machine
rm "$B/npm" "$B/node" "$B/mpicc" "$R/usr/bin/chromium"
deps
check "without --test, the tests' tools are not asked for" sh -c "[ $rc = 0 ] && [ ! -e '$T/apt.log' ]"

# --- Cannot install: the command to run, status 1, apt-get not called.
machine
rm "$B/npm"
stub id 'echo 1000'
stub sudo 'exit 1'
deps --test
check "not root, no sudo: status 1" test "$rc" = 1
check "not root, no sudo: apt-get not called" untouched
check "not root, no sudo: prints the command" \
    grep -qx 'deps: run: sudo apt-get update && sudo apt-get install -y npm' "$T/err"
machine
rm "$B/npm"
stub id 'echo 1000'
deps --test
check "not root, sudo without a password: installs through sudo" asked npm
check "not root, sudo: status 0" test "$rc" = 0
machine
rm "$B/pkg-config"
: >"$T/apt.fail"
deps
check "apt-get install fails: status 1" test "$rc" = 1
check "apt-get install fails: prints the command" \
    grep -qx 'deps: run: sudo apt-get update && sudo apt-get install -y pkg-config' "$T/err"
machine
rm "$B/pkg-config" "$B/apt-get"
deps
check "no apt-get: status 1 and what to install" \
    sh -c "[ $rc = 1 ] && grep -q 'install a C compiler' '$T/err'"

# --- playwright-core from npm, once node and npm are there.
machine
rm -r "$P/tests/fair/node_modules"
deps --test
check "playwright-core missing: npm installs it into tests/fair" \
    grep -q '^install --prefix tests/fair .*playwright-core' "$T/npm.log"
check "playwright-core missing: status 0, apt-get not called" sh -c "[ $rc = 0 ] && [ ! -e '$T/apt.log' ]"
machine
rm -r "$P/tests/fair/node_modules"
: >"$T/npm.fail"
deps --test
check "npm install fails: status 1 and the command to run" \
    sh -c "[ $rc = 1 ] && grep -qx 'deps: run: npm install --prefix tests/fair playwright-core' '$T/err'"
finish
