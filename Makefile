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
ALL_CFLAGS = -std=c11 $(WARN) -D_GNU_SOURCE -Iinclude $(CFLAGS)
LIB_CFLAGS = $(ALL_CFLAGS) -fPIC -fvisibility=hidden
LDLIBS    ?=
LIBS      = -lsodium -lm -lpthread $(LDLIBS)

VERSION := $(shell sed -n 's/^\#define FSH_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' include/fairshuf.h | paste -sd.)

BUILD    ?= build
OUT      ?= .
LIBA      = $(OUT)/libfairshuf.a
LIBSO     = $(OUT)/libfairshuf.so
BIN       = $(OUT)/fairshuf
LIB_SRC  := $(sort $(wildcard src/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC  := $(sort $(wildcard cli/*.c))
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
EX_SRC   := $(sort $(wildcard examples/*.c))
EX_BIN   := $(EX_SRC:examples/%.c=$(BUILD)/examples/%)
HDRS     := include/fairshuf.h $(wildcard src/*.h)

.PHONY: all run check sanitize bench install uninstall clean deps examples check-san

all: $(LIBA) $(LIBSO) $(BIN) fairshuf.pc

deps:
	@sh scripts/deps.sh

$(BUILD)/src/%.o: src/%.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -c $< -o $@

$(BUILD)/cli/%.o: cli/%.c include/fairshuf.h $(wildcard cli/*.h)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIBA): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIBSO): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libfairshuf.so.$(firstword $(subst ., ,$(VERSION))) \
	    -o $@ $^ $(LIBS)

$(BIN): $(CLI_OBJ) $(LIBA)
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(LIBA) $(LIBS)

fairshuf.pc: fairshuf.pc.in include/fairshuf.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' $< > $@

# A shuffled, dealt deck on the terminal.
run: deps all
	./fairshuf deal

$(BUILD)/tests/%: tests/%.c $(LIBA) $(wildcard tests/*.h tests/gen/*.h) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(LIBA) $(LIBS)

# LD_PRELOAD shim that makes the OS random source fail (entropy-failure tests).
SHIM = $(BUILD)/tests/libnoentropy.so
$(SHIM): tests/shim/noentropy.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O1 -fPIC -shared -o $@ $< -ldl

$(BUILD)/examples/%: examples/%.c $(LIBA) include/fairshuf.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBA) $(LIBS)

examples: $(EX_BIN)

# Every test program, then the CLI suite; ends with "N passed, N failed".
check: deps all $(TEST_BIN) $(EX_BIN) $(SHIM)
	@sh tests/run.sh $(BUILD) $(BIN)

# Rebuild everything in a separate tree under ASan+UBSan and run the tests.
sanitize:
	@$(MAKE) --no-print-directory BUILD=build-san OUT=build-san \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	    LDLIBS="-fsanitize=address,undefined" check-san

check-san: $(LIBA) $(BIN) $(TEST_BIN) $(SHIM)
	@FSH_SANITIZE=1 sh tests/run.sh $(BUILD) $(BIN)

bench: all
	@$(MAKE) --no-print-directory -C bench run

install: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) \
	    $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(MANDIR)/man1
	install -m 644 libfairshuf.a $(DESTDIR)$(LIBDIR)/
	install -m 755 libfairshuf.so $(DESTDIR)$(LIBDIR)/libfairshuf.so.$(VERSION)
	ln -sf libfairshuf.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libfairshuf.so.$(firstword $(subst ., ,$(VERSION)))
	ln -sf libfairshuf.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libfairshuf.so
	install -m 644 include/fairshuf.h $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 fairshuf.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	install -m 755 fairshuf $(DESTDIR)$(BINDIR)/
	if [ -f docs/fairshuf.1 ]; then install -m 644 docs/fairshuf.1 $(DESTDIR)$(MANDIR)/man1/; fi

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libfairshuf.* $(DESTDIR)$(INCLUDEDIR)/fairshuf.h \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/fairshuf.pc $(DESTDIR)$(BINDIR)/fairshuf \
	    $(DESTDIR)$(MANDIR)/man1/fairshuf.1

clean:
	rm -rf build build-san libfairshuf.a libfairshuf.so fairshuf fairshuf.pc
	@$(MAKE) --no-print-directory -C bench clean
