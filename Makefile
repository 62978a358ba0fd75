# SPDX-License-Identifier: MIT
# fairshuf: plain Makefile (see README.md).
PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
DESTDIR    ?=

CC       ?= cc
CXX      ?= c++
CFLAGS   ?= -O2
WARN      = -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wstrict-prototypes \
            -Wmissing-prototypes -Wcast-qual -Wundef -Wvla -Wformat=2
ifeq ($(WERROR),1)
WARN     += -Werror
endif
# Hardening for the installed binaries and library (issue 14): fortified
# libc calls (glibc >= 2.34 knows level 3; it needs -O1 or more), stack
# protector, PIE for the command, full RELRO and immediate binding. CPPFLAGS
# and LDFLAGS (dpkg-buildflags passes them) are honoured; -U first so a
# -D_FORTIFY_SOURCE=2 in CPPFLAGS or the compiler's default is replaced, not
# redefined. "make HARDEN= HARDEN_LD=" builds without; the sanitizer and
# fuzz builds drop fortify (ASan intercepts the same calls) and keep the rest.
FORTIFY    ?= -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3
HARDEN     ?= $(FORTIFY) -fstack-protector-strong
HARDEN_LD  ?= -Wl,-z,relro,-z,now
CPPFLAGS  ?=
LDFLAGS   ?=
ALL_CFLAGS = -std=c11 $(WARN) -D_GNU_SOURCE -Iinclude $(CPPFLAGS) $(HARDEN) $(CFLAGS)
LIB_CFLAGS = $(ALL_CFLAGS) -Isrc -fPIC -fvisibility=hidden
ALL_LDFLAGS = $(HARDEN_LD) $(LDFLAGS)
LDLIBS    ?=
LIBS      = -lsodium -lm -lpthread $(LDLIBS)

VERSION := $(shell sed -n 's/^\#define FSH_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' include/fairshuf.h | paste -sd.)
# The ABI number, the N of the SONAME libfairshuf.so.N: it moves only when a
# release breaks programs linked against the previous one, whatever the
# version number says (docs/VERSIONING.md); the Debian package libfairshufN
# and debian/libfairshufN.symbols follow it.
SOVERSION := 0

BUILD    ?= build
OUT      ?= .
LIBA      = $(OUT)/libfairshuf.a
LIBSO     = $(OUT)/libfairshuf.so
BIN       = $(OUT)/fairshuf
LIB_SRC  := $(sort $(wildcard src/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC  := $(sort $(wildcard cli/*.c cli/*/*.c))
# shared/: static inline helpers both the library and the command include
# (docs/DESIGN.md, "Shared sources").
SHARED_HDRS := $(wildcard shared/*.h)
CLI_HDRS := $(wildcard cli/*.h cli/*/*.h) $(SHARED_HDRS)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
EX_SRC   := $(sort $(wildcard examples/*.c))
EX_BIN   := $(EX_SRC:examples/%.c=$(BUILD)/examples/%)
HDRS     := include/fairshuf.h $(wildcard src/*/*.h) $(SHARED_HDRS)

# Optional parts, one file each in mk/ (mpi.mk: libfairshuf_mpi and
# fairshuf-mpi; python.mk: the Python package): each may add prerequisites
# of check (CHECK_DEPS) and of sanitize's check-san (SAN_DEPS: parts that
# build under ASan+UBSan), make targets bench runs after the C benchmark
# (BENCH_TARGETS) and files clean removes (CLEAN_EXTRA). Included here so
# check's prerequisite list sees them.
# all stays the default goal whatever the mk/ files define first (a bare
# `make` ran mk/cli-bench.mk's bench-cli, 20 minutes of benchmarks).
.DEFAULT_GOAL := all
CHECK_DEPS    :=
SAN_DEPS      :=
BENCH_TARGETS :=
CLEAN_EXTRA :=
include $(sort $(wildcard mk/*.mk))

.PHONY: all run check sanitize bench install uninstall clean deps deps-test examples check-san \
        tsan check-tsan fuzz fuzz-build fuzz-bins audit-calibrate

all: $(LIBA) $(LIBSO) $(BIN)

deps:
	@sh scripts/deps.sh

# What the tests need beyond the build (python3, chromium, node, npm,
# playwright-core): make check installs it on a fresh Debian machine.
deps-test:
	@sh scripts/deps.sh --test

$(BUILD)/src/%.o: src/%.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -c $< -o $@

$(BUILD)/cli/%.o: cli/%.c include/fairshuf.h $(CLI_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIE -Icli -c $< -o $@

$(LIBA): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIBSO): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libfairshuf.so.$(SOVERSION) \
	    $(CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# The command is a static PIE when the toolchain can link one (libc.a,
# libsodium.a and libm.a found; issue 13). Linked dynamically, fairshuf
# starts with ld.so, libc, libm and libsodium mapped and relocated, about
# 1 MB more resident than GNU shuf (libc only) before it reads a byte;
# static, only the pages it runs are mapped, and `shuf -i 1-100 -n 5` peaks
# below GNU's. CLI_STATIC= (empty) links it dynamically, as the Debian
# build does (Debian wants glibc and libsodium shared, for their security
# updates; debian/rules sets CLI_SHARED=1, below), and so does any build
# with -fsanitize in CFLAGS or LDLIBS (the sanitizer runtimes need it). Beside a static one, make check builds its dynamic
# twin $(DYN_BIN) from the same objects: a static binary ignores
# LD_PRELOAD, so the tests that use shims, and valgrind, run that one
# (tests/cli/lib.sh: dynamic).
# Static or dynamic, the command carries its own copy of libfairshuf
# (libfairshuf.a). CLI_SHARED=1 links it against libfairshuf.so instead
# (NEEDED libfairshuf.so.$(SOVERSION); it implies CLI_STATIC=): debian/rules
# does, so that a fix shipped in the libfairshuf0 package reaches the
# fairshuf package's command (tests/pkg/deb.sh). The command uses the
# public API only (cli/ includes fairshuf.h alone), all of which the shared
# library exports. Such a command finds its library where it is installed
# (the build tree has no libfairshuf.so.0); make check tests the default
# build.
# Installed where the dynamic loader looks by itself (/lib, /usr/lib, their
# lib64 and multiarch directories: a distribution's package, and Debian
# forbids an rpath there) it needs no rpath and gets none. Anywhere else
# (the default /usr/local, whose lib the loader knows only once ldconfig
# has run; /opt/..., $HOME/.local) it did not start without
# LD_LIBRARY_PATH ("error while loading shared libraries"), so it gets a
# RUNPATH of $ORIGIN and the way from BINDIR to LIBDIR ($ORIGIN/../lib):
# relocatable like the CMake package, so a DESTDIR staging tree, a moved
# prefix and the installed tree all run (tests/cli/test_build.sh).
# CLI_RPATH=DIR (absolute) sets another, CLI_RPATH= none. fairshuf-mpi
# links the same way (mk/mpi.mk). The link-mode stamp below holds it, so
# an install to another PREFIX relinks.
comma := ,
CLI_MULTIARCH   = $(shell $(CC) -print-multiarch 2>/dev/null)
CLI_SYS_LIBDIRS = /lib /usr/lib /lib64 /usr/lib64 \
                  $(foreach d,/lib /usr/lib,$(addprefix $(d)/,$(CLI_MULTIARCH)))
CLI_RPATH_REL   = $(shell realpath -ms --relative-to='$(abspath $(BINDIR))' '$(abspath $(LIBDIR))' 2>/dev/null)
CLI_RPATH_AUTO  = $(if $(filter $(CLI_SYS_LIBDIRS),$(abspath $(LIBDIR))),,$(if \
                  $(CLI_RPATH_REL),$$ORIGIN/$(CLI_RPATH_REL),$(abspath $(LIBDIR))))
CLI_RPATH      ?= $(CLI_RPATH_AUTO)
CLI_RPATH_LD    = $(if $(and $(CLI_SHARED),$(CLI_RPATH)),-Wl$(comma)--enable-new-dtags$(comma)-rpath$(comma)'$(CLI_RPATH)')
CLI_STATIC_PROBE = printf 'int main(void) { return 0; }\n' | $(CC) $(CFLAGS) -x c - \
	    -static-pie $(ALL_LDFLAGS) -o /dev/null $(LIBS) >/dev/null 2>&1 && echo 1
CLI_STATIC ?= $(if $(CLI_SHARED)$(findstring -fsanitize,$(CFLAGS) $(LDLIBS)),,$(shell $(CLI_STATIC_PROBE)))
ifneq ($(CLI_SHARED),)
ifneq ($(CLI_STATIC),)
$(error CLI_SHARED=1 links the command dynamically; it cannot be CLI_STATIC too)
endif
endif
CLI_LIB    = $(if $(CLI_SHARED),$(LIBSO),$(LIBA))
DYN_BIN    = $(BUILD)/dyn/fairshuf

# The link mode is kept in a file that changes only when the mode does, so
# that switching CLI_SHARED or CLI_STATIC on a built tree relinks the
# command (without it make said the command was up to date).
CLI_LINK_MODE  = $(if $(CLI_SHARED),shared$(if $(CLI_RPATH), rpath=$(CLI_RPATH)),$(if $(CLI_STATIC),static,dynamic))
CLI_LINK_STAMP = $(BUILD)/cli-link-mode
.PHONY: FORCE
$(CLI_LINK_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(CLI_LINK_MODE)' | cmp -s - $@ || echo '$(CLI_LINK_MODE)' >$@

# The command's link order: the code every shuffle runs first (main, the
# input, output and stream paths, and of the library the generators, seeding,
# bounded integers, sampling and the shuffle's dispatch), then the rest
# (deal, verify, audit; decks, fair rounds, records, the in-cache and large
# kernels, the statistics). A short run then executes code in fewer pages,
# and the kernel maps fewer of the binary's pages (it maps the cached pages
# around each page touched, 64 KiB): issue 13's peak RSS row, `-n 1000` of
# a stream, median of 30 runs 1.87 MB to 1.80, largest 2.02 to 1.89 (GNU
# shuf: 1.90 and 2.05). Linked from the objects, not libfairshuf.a, whose
# members ld places in the order it needs them (a member wanted only after
# the scan passed it comes last); the same objects either way, as the
# command uses every member. tests/cli/test_rss.sh checks the order.
CLI_HOT := cli/main.c cli/version.c cli/common/%.c cli/io/%.c cli/shuf/%.c
LIB_HOT := src/common/error.c src/rng/%.c src/uniform/%.c src/sample/%.c \
           src/shuffle/shuffle.c
CLI_LINK_OBJ = $(patsubst %.c,$(BUILD)/%.o,$(filter $(CLI_HOT),$(CLI_SRC)) \
               $(filter $(LIB_HOT),$(LIB_SRC)) $(filter-out $(CLI_HOT),$(CLI_SRC)) \
               $(filter-out $(LIB_HOT),$(LIB_SRC)))
CLI_LINK_IN = $(if $(CLI_SHARED),$(CLI_OBJ) $(LIBSO),$(CLI_LINK_OBJ))

$(BIN): $(CLI_OBJ) $(CLI_LIB) $(CLI_LINK_STAMP)
	$(CC) $(ALL_CFLAGS) -fPIE $(if $(CLI_STATIC),-static-pie,-pie) $(ALL_LDFLAGS) $(CLI_RPATH_LD) \
	    -o $@ $(CLI_LINK_IN) $(LIBS)

$(DYN_BIN): $(CLI_OBJ) $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIE -pie $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) $(LIBA) $(LIBS)

# fairshuf.pc is written by install, from that install's PREFIX, LIBDIR and
# INCLUDEDIR (never a stale copy from an earlier make); "make fairshuf.pc"
# shows what install would write.
# (PC_SUBST: the substitutions, which fairshuf_mpi.pc shares, mk/mpi.mk.)
PC_SUBST = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|'
PC_SED = $(PC_SUBST) fairshuf.pc.in

.PHONY: fairshuf.pc
fairshuf.pc:
	$(PC_SED) > $@

# The CMake package (find_package(fairshuf)): written by install the same
# way, into LIBDIR/cmake/fairshuf. It is relocatable: fairshufConfig.cmake
# finds the prefix from its own place (CMAKE_CURRENT_LIST_DIR and
# CMAKE_UP, the way up from LIBDIR/cmake/fairshuf to PREFIX), and LIBDIR
# and INCLUDEDIR under it (CMAKE_LIBREL, CMAKE_INCREL, relative to PREFIX),
# so a DESTDIR staging tree or a moved prefix works too. A LIBDIR outside
# PREFIX keeps both paths absolute (the prefix cannot be found from there).
# Paths are normalised by abspath first (no ".", "..", "//", trailing "/").
CMAKE_P      = $(patsubst %/,%,$(abspath $(PREFIX)))
cmake_rel    = $(if $(filter $(CMAKE_P),$(1)),.,$(if $(filter $(CMAKE_P)/%,$(1)),$(patsubst $(CMAKE_P)/%,%,$(1)),$(1)))
CMAKE_LIBREL = $(call cmake_rel,$(abspath $(LIBDIR)))
CMAKE_UNDER  = $(filter-out /%,$(CMAKE_LIBREL))
CMAKE_INCREL = $(if $(CMAKE_UNDER),$(call cmake_rel,$(abspath $(INCLUDEDIR))),$(abspath $(INCLUDEDIR)))
CMAKE_UP     = $(subst $(eval) ,/,$(foreach d,$(filter-out .,$(subst /, ,$(CMAKE_LIBREL))) cmake fairshuf,..))
CMAKE_SED = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@CMAKE_UP@|$(CMAKE_UP)|g' -e 's|@CMAKE_LIBREL@|$(CMAKE_LIBREL)|g' \
	    -e 's|@CMAKE_INCREL@|$(CMAKE_INCREL)|g' \
	    -e 's|@CMAKE_PREFIX@|$(CMAKE_P)|g' \
	    -e 's|@CMAKE_INSTALL_DIR@|$(abspath $(LIBDIR))/cmake/fairshuf|g' \
	    -e 's|@CMAKE_LIBDIR@|$(abspath $(LIBDIR))|g' \
	    -e 's|@SOVERSION@|$(SOVERSION)|g' -e 's|@VERSION_MAJOR@|$(word 1,$(subst ., ,$(VERSION)))|g' \
	    -e 's|@VERSION_MINOR@|$(word 2,$(subst ., ,$(VERSION)))|g' \
	    -e "s|@SIZEOF_VOID_P@|$$(echo __SIZEOF_POINTER__ | $(CC) -E -P - | tail -n 1)|g"
CMAKE_DIR = $(DESTDIR)$(LIBDIR)/cmake/fairshuf
# Section 3 pages (docs/man): one per function or family, link pages for
# the other names; the fsh_mpi_* pages go with libfairshuf_mpi (make
# install-mpi, mk/mpi.mk), not with the core library.
MAN3     := $(sort $(filter-out docs/man/fsh_mpi_%,$(wildcard docs/man/*.3)))

# A shuffled, dealt deck on the terminal.
run: deps all
	./fairshuf deal

$(BUILD)/tests/%: tests/%.c $(LIBA) $(wildcard tests/*.h tests/gen/*.h) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(LIBA) $(LIBS)

# The command's generator (tests/test_cli_rng.c): with the CLI sources that
# make it.
CLI_RNG_SRC := cli/common/rng.c cli/common/msg.c cli/common/quote.c \
               cli/common/xalloc.c
$(BUILD)/tests/test_cli_rng: tests/test_cli_rng.c $(CLI_RNG_SRC) $(LIBA) $(wildcard tests/*.h) $(CLI_HDRS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Isrc -Icli -o $@ $< $(CLI_RNG_SRC) $(LIBA) $(LIBS)

# The audit's p-values on a correct shuffler (tests/test_audit_pvalues.c):
# with the battery that computes them, whose allocations (and
# libfairshuf.a's) the test can fail.
$(BUILD)/tests/test_audit_pvalues: tests/test_audit_pvalues.c cli/audit/battery.c $(LIBA) $(wildcard tests/*.h) $(CLI_HDRS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Icli -o $@ $< cli/audit/battery.c $(LIBA) $(LIBS) -Wl,--wrap=realloc,--wrap=malloc,--wrap=calloc

# Allocation-failure injection (tests/test_alloc.c): the program's and
# libfairshuf.a's malloc, calloc, realloc, free and pthread_create go
# through the test's wrappers.
ALLOC_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=pthread_create
$(BUILD)/tests/test_alloc: tests/test_alloc.c $(LIBA) tests/check.h $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LIBS) $(ALLOC_WRAP)

# What the library frees is wiped first (tests/test_wipe.c): its free()
# checks the blocks it watches (one, or all freed during a call).
WIPE_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=free
$(BUILD)/tests/test_wipe: tests/test_wipe.c $(LIBA) tests/check.h $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(LIBA) $(LIBS) $(WIPE_WRAP)

# LD_PRELOAD shims for the CLI tests (tests/shim/NAME.c -> libNAME.so):
# noentropy fails the OS random source, race changes a file being read,
# fakeproc fakes /proc's cgroup files, overcommit refuses single requests
# beyond a size as the kernel's heuristic overcommit does, maprace
# changes a mapped input, nothread fails pthread_create. Tests find them
# with lib.sh's shim.
SHIM := $(patsubst tests/shim/%.c,$(BUILD)/tests/lib%.so,$(wildcard tests/shim/*.c))
$(BUILD)/tests/lib%.so: tests/shim/%.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O1 -fPIC -shared -o $@ $< -ldl

# The shufflers fairshuf audit is tested on (tests/audit/*.c: fair ones and
# the classic flawed ones), run by tests/cli/test_audit.sh.
AUDIT_BIN := $(patsubst tests/audit/%.c,$(BUILD)/tests/audit/%,$(wildcard tests/audit/*.c))
$(BUILD)/tests/audit/%: tests/audit/%.c tests/audit/shuffler.h $(LIBA) include/fairshuf.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LIBS)

$(BUILD)/examples/%: examples/%.c $(LIBA) include/fairshuf.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LIBS)

examples: $(EX_BIN)

# Fuzz harnesses replayed over their corpus and regression inputs by a
# plain main() (tests/fuzz/README.md): run by check and sanitize as
# build/tests/test_fuzz_<target>. --wrap turns the CLI's exit() into a
# return to the harness and makes huge allocations fail.
FUZZ_DIR    := tests/fuzz
FUZZ_NAMES  := $(sort $(patsubst $(FUZZ_DIR)/fuzz_%.c,%,$(wildcard $(FUZZ_DIR)/fuzz_*.c)))
FUZZ_DEPS   := $(FUZZ_DIR)/common.c $(FUZZ_DIR)/fuzz.h $(CLI_HDRS) $(HDRS)
FUZZ_WRAP   := -Wl,--wrap=exit,--wrap=malloc,--wrap=calloc,--wrap=realloc
CLI_LIB_OBJ := $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ))
REPLAY_BIN  := $(FUZZ_NAMES:%=$(BUILD)/tests/test_fuzz_%)

$(BUILD)/tests/test_fuzz_%: $(FUZZ_DIR)/fuzz_%.c $(FUZZ_DIR)/replay.c $(FUZZ_DEPS) $(CLI_LIB_OBJ) $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Icli -DFUZZ_NAME='"$*"' -o $@ $< $(FUZZ_DIR)/replay.c \
	    $(FUZZ_DIR)/common.c $(CLI_LIB_OBJ) $(LIBA) $(LIBS) $(FUZZ_WRAP)

# Every test program, then the CLI suite; ends with "N checks passed, N failed, N skipped (P programs)".
# CHECK_JOBS programs at a time (tests/run.sh: FSH_JOBS; default 2, or
# FSH_JOBS from the environment); those that measure time or memory run
# alone, after the others. CHECK_JOBS=1 runs them one at a time.
CHECK_JOBS ?= $(or $(FSH_JOBS),2)
check: deps deps-test all $(TEST_BIN) $(REPLAY_BIN) $(EX_BIN) $(SHIM) $(DYN_BIN) $(AUDIT_BIN) $(CHECK_DEPS)
	@FSH_JOBS=$(CHECK_JOBS) sh tests/run.sh $(BUILD) $(BIN)

# Rebuild everything in a separate tree under ASan+UBSan and run the tests,
# SAN_JOBS programs at a time (tests/run.sh: FSH_JOBS; the ones that measure
# time or memory run alone). FSH_SANITIZE=1 tells the tests: some scale
# their repetitions down there (each says what the sanitizer run still
# covers); make check keeps every statistical and exhaustive test whole.
# The shared library is built here too, not by the first test that runs
# make install (test_abi checks its symbols; tests that install run at the
# same time and must not both link it).
SAN_JOBS ?= 2
sanitize:
	@$(MAKE) --no-print-directory BUILD=build-san OUT=build-san \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	    FORTIFY= LDLIBS="-fsanitize=address,undefined" check-san

# allocator_may_return_null=1: a request beyond ASan's 1 TiB allocation
# cap returns NULL, as the kernel refuses one beyond the machine, instead
# of aborting the program, so the tests of "memory exhausted" (plans of
# several TiB; an ASan binary cannot run under ulimit -v) run here too.
check-san: $(LIBA) $(LIBSO) $(BIN) $(TEST_BIN) $(REPLAY_BIN) $(SHIM) $(AUDIT_BIN) $(SAN_DEPS)
	@FSH_SANITIZE=1 FSH_JOBS=$(SAN_JOBS) \
	    ASAN_OPTIONS="$${ASAN_OPTIONS:+$$ASAN_OPTIONS:}allocator_may_return_null=1" \
	    sh tests/run.sh $(BUILD) $(BIN)

# libFuzzer runs (clang): every target for FUZZ_TIME seconds, FUZZ_JOBS at
# a time, starting from its corpus and regression inputs; new inputs go to
# build-fuzz/corpus/<target>, never to the committed corpus. A crash fails
# and prints how to reproduce it and keep it as a regression input.
FUZZ_CC    ?= clang
FUZZ_TIME  ?= 60
FUZZ_JOBS  ?= 1
FUZZ_CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
              -fno-sanitize-recover=all
FUZZ_BIN   := $(FUZZ_NAMES:%=$(OUT)/fuzz_%)

fuzz: fuzz-build
	@sh $(FUZZ_DIR)/run.sh build-fuzz $(FUZZ_TIME) $(FUZZ_JOBS) $(FUZZ_NAMES)

fuzz-build:
	@$(MAKE) --no-print-directory CC=$(FUZZ_CC) BUILD=build-fuzz OUT=build-fuzz \
	    CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link" \
	    FORTIFY= LDLIBS="-fsanitize=address,undefined" fuzz-bins

fuzz-bins: $(FUZZ_BIN)

$(OUT)/fuzz_%: $(FUZZ_DIR)/fuzz_%.c $(FUZZ_DEPS) $(CLI_LIB_OBJ) $(LIBA)
	$(CC) $(ALL_CFLAGS) -Icli -fsanitize=fuzzer -o $@ $< $(FUZZ_DIR)/common.c \
	    $(CLI_LIB_OBJ) $(LIBA) $(LIBS) $(FUZZ_WRAP)

# ThreadSanitizer: the library, the CLI and the threaded tests rebuilt with
# -fsanitize=thread, then the threaded paths: fsh_shuffle_threads
# (test_scatter), the library's parallel record scatter (fsh_shuffle_records
# and fsh_records_*, more than 2^20 records) run by the CLI in
# memory and in external mode, the CLI's threaded write of a shuffled
# input over 8 MiB (cli/shuf/gather.c), and external mode on small inputs.
TSAN_ENV = TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 $(TSAN_OPTIONS)"

tsan:
	@$(MAKE) --no-print-directory BUILD=build-tsan OUT=build-tsan \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=thread" \
	    FORTIFY= LDLIBS="-fsanitize=thread" check-tsan

# test_scatter built with TSan runs its threaded parts only (the rest is
# single-threaded and runs in check and sanitize).
check-tsan: $(BIN) $(BUILD)/tests/test_scatter
	FSH_SANITIZE=1 $(TSAN_ENV) $(BUILD)/tests/test_scatter
	@set -e; d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; \
	seq 1 1200000 > "$$d/big"; seq 1 5000 > "$$d/small"; \
	seq 1 1200000 | tr '\n' '\0' > "$$d/bigz"; \
	sort "$$d/big" > "$$d/big.s"; sort "$$d/small" > "$$d/small.s"; \
	sort -z "$$d/bigz" > "$$d/bigz.s"; \
	run() { f=$$1; z=$$2; shift 2; echo "tsan: fairshuf --seed=t $$* $$f"; \
	    $(TSAN_ENV) $(BIN) --seed=t "$$@" "$$d/$$f" > "$$d/out"; \
	    sort $$z "$$d/out" | cmp -s - "$$d/$$f.s" || \
	        { echo "tsan: output is not a permutation of $$f"; exit 1; }; }; \
	run big "" --threads=4; \
	run big "" --threads=4 --memory=4M; \
	run bigz -z -z --threads=3 --memory=2M; \
	run small "" --threads=2 --memory=1K; \
	run small "" --threads=4 --header=1 --memory=1K; \
	echo "tsan: all runs clean"

# The audit's full calibration (docs/AUDIT.md): AUDIT_RUNS audits of each
# correct shuffler at AUDIT_ALPHA; make check runs a small one.
AUDIT_RUNS  ?= 500
AUDIT_ALPHA ?= 0.01
audit-calibrate: all $(AUDIT_BIN)
	@sh scripts/audit-calibrate.sh $(BIN) $(BUILD)/tests/audit $(AUDIT_RUNS) $(AUDIT_ALPHA)

bench: all
	@$(MAKE) --no-print-directory -C bench run
	$(if $(BENCH_TARGETS),@$(MAKE) --no-print-directory $(BENCH_TARGETS))

install: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) \
	    $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(LIBA) $(DESTDIR)$(LIBDIR)/libfairshuf.a
	install -m 755 $(LIBSO) $(DESTDIR)$(LIBDIR)/libfairshuf.so.$(VERSION)
	ln -sf libfairshuf.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libfairshuf.so.$(SOVERSION)
	ln -sf libfairshuf.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libfairshuf.so
	install -m 644 include/fairshuf.h $(DESTDIR)$(INCLUDEDIR)/
	$(PC_SED) > $(DESTDIR)$(LIBDIR)/pkgconfig/fairshuf.pc
	chmod 644 $(DESTDIR)$(LIBDIR)/pkgconfig/fairshuf.pc
	install -d $(CMAKE_DIR)
	$(CMAKE_SED) cmake/fairshufConfig.cmake.in > $(CMAKE_DIR)/fairshufConfig.cmake
	$(CMAKE_SED) cmake/fairshufConfigVersion.cmake.in > $(CMAKE_DIR)/fairshufConfigVersion.cmake
	chmod 644 $(CMAKE_DIR)/fairshufConfig.cmake $(CMAKE_DIR)/fairshufConfigVersion.cmake
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/fairshuf
	install -m 644 docs/fairshuf.1 $(DESTDIR)$(MANDIR)/man1/
	$(if $(MAN3),install -d $(DESTDIR)$(MANDIR)/man3 && install -m 644 $(MAN3) $(DESTDIR)$(MANDIR)/man3/)

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libfairshuf.* $(DESTDIR)$(INCLUDEDIR)/fairshuf.h \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/fairshuf.pc $(DESTDIR)$(BINDIR)/fairshuf \
	    $(DESTDIR)$(MANDIR)/man1/fairshuf.1 \
	    $(CMAKE_DIR)/fairshufConfig.cmake $(CMAKE_DIR)/fairshufConfigVersion.cmake \
	    $(addprefix $(DESTDIR)$(MANDIR)/man3/,$(notdir $(MAN3)))
	-rmdir $(CMAKE_DIR) 2>/dev/null

clean:
	rm -rf build build-san build-fuzz build-tsan libfairshuf.a libfairshuf.so fairshuf fairshuf.pc $(CLEAN_EXTRA)
	@$(MAKE) --no-print-directory -C bench clean
