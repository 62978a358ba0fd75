# SPDX-License-Identifier: MIT
# libfairshuf_mpi (.a, .so), the fairshuf-mpi command and the MPI test
# programs (issue 15), built with mpicc by "make mpi". Optional: without
# mpicc, make and make check build and test everything else, and make mpi
# says what to install. make check builds and runs them when mpicc exists
# (tests/mpi/test_mpi.sh skips without mpirun), and so does make sanitize,
# under ASan+UBSan in build-san.
MPICC   ?= mpicc
MPI_DIR  = $(BUILD)/mpi
MPI_LIBA = $(OUT)/libfairshuf_mpi.a
# Every object of libfairshuf_mpi.a with its internals (fshm_*) global:
# fairshuf-mpi and the MPI tests link this one (they call them); it is
# never installed.
MPI_LIBA_INT = $(MPI_DIR)/libfairshuf_mpi_internal.a
MPI_LIBSO = $(OUT)/libfairshuf_mpi.so
MPI_BIN  = $(OUT)/fairshuf-mpi
MPI_LIB_SRC := $(sort $(wildcard mpi/*.c))
MPI_LIB_OBJ := $(MPI_LIB_SRC:%.c=$(MPI_DIR)/%.o)
MPI_CLI_SRC := $(sort $(wildcard mpi/cli/*.c))
MPI_CLI_OBJ := $(MPI_CLI_SRC:%.c=$(MPI_DIR)/%.o)
MPI_TEST_SRC := $(sort $(wildcard tests/mpi/*.c))
MPI_TEST_BIN := $(MPI_TEST_SRC:tests/mpi/%.c=$(MPI_DIR)/tests/%)
MPI_HDRS := include/fairshuf_mpi.h include/fairshuf.h mpi/internal.h
# fairshuf's output files (cli/io/outfile.c: -o and shards written through
# symlinks and hard links, renamed only when that keeps FILE's identity):
# the command links the same objects, so both follow one set of rules.
MPI_CLI_IO := $(addprefix $(BUILD)/cli/,io/outfile.o io/tmpfile.o io/output.o \
    common/msg.o common/quote.o common/sysio.o common/xalloc.o)
HAVE_MPICC := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo 1)
# The command's copy of libfairshuf: libfairshuf.a, or with CLI_SHARED=1
# (debian/rules, as for fairshuf) libfairshuf.so (NEEDED
# libfairshuf.so.$(SOVERSION)), so that the fairshuf-mpi package uses
# libfairshuf0's, with fairshuf's rpath (the Makefile, CLI_RPATH: none in
# a system directory). libfairshuf_mpi itself is always linked in (its internals
# are hidden; it is not packaged). The command, its man page: install-mpi-cmd.
# (Spelled out: the Makefile defines CLI_LIB and the link-mode stamp after
# including this file, too late for a prerequisite list.)
MPI_CLI_LIB = $(if $(CLI_SHARED),$(LIBSO),$(LIBA))

.PHONY: mpi mpi-bench install-mpi install-mpi-cmd uninstall-mpi

ifeq ($(HAVE_MPICC),1)
mpi: $(MPI_LIBA) $(MPI_LIBSO) $(MPI_BIN) $(MPI_TEST_BIN)
CHECK_DEPS += mpi
SAN_DEPS += mpi
BENCH_TARGETS += mpi-bench
else
mpi:
	@echo "make mpi: $(MPICC) not found; install Open MPI (Debian: apt-get install libopenmpi-dev openmpi-bin)" >&2
	@exit 1
endif

$(MPI_DIR)/mpi/%.o: mpi/%.c $(MPI_HDRS) $(wildcard mpi/cli/*.h) $(CLI_HDRS)
	@mkdir -p $(@D)
	$(MPICC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -Impi -Icli -c $< -o $@

$(MPI_LIBA_INT): $(filter-out $(MPI_DIR)/mpi/cli/%,$(MPI_LIB_OBJ))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# libfairshuf_mpi.a has its internals (fshm_*, FSHM_HIDDEN) local, as
# libfairshuf_mpi.so hides them: global in the archive, they clashed with
# a consumer's own functions of those names at a static link. One object,
# fairshuf_mpi.o, which calls only libfairshuf's public API, so nothing
# outside it needs them. The same archive in the build tree and installed
# (only the installed copy was localized, so a program linked against the
# build tree still clashed; tests/cli/test_static.sh checks both).
OBJCOPY ?= objcopy
$(MPI_LIBA): $(MPI_LIBA_INT)
	rm -f $@
	$(OBJCOPY) --localize-hidden $< $@

$(MPI_LIBSO): $(MPI_LIB_OBJ) $(LIBSO)
	$(MPICC) -shared -Wl,-soname,libfairshuf_mpi.so.$(SOVERSION) $(CFLAGS) \
	    $(ALL_LDFLAGS) -o $@ $(MPI_LIB_OBJ) -L$(OUT) -lfairshuf $(LIBS)

$(MPI_BIN): $(MPI_CLI_OBJ) $(MPI_CLI_IO) $(MPI_LIBA_INT) $(MPI_CLI_LIB) $(BUILD)/cli-link-mode
	$(MPICC) $(ALL_CFLAGS) -fPIE -pie $(ALL_LDFLAGS) $(CLI_RPATH_LD) -o $@ $(MPI_CLI_OBJ) \
	    $(MPI_CLI_IO) $(MPI_LIBA_INT) $(MPI_CLI_LIB) $(LIBS)

$(MPI_DIR)/tests/%: tests/mpi/%.c $(MPI_LIBA_INT) $(LIBA) $(MPI_HDRS) tests/check.h
	@mkdir -p $(@D)
	$(MPICC) $(ALL_CFLAGS) -Impi -Itests -o $@ $< $(MPI_LIBA_INT) $(LIBA) $(LIBS)

# make bench runs it after the C benchmark when mpicc exists.
mpi-bench: mpi all
	@sh tests/mpi/bench.sh ./fairshuf $(MPI_BIN)

# Installed by its own target (make install never needs MPI); the command
# alone (the fairshuf-mpi Debian package) by install-mpi-cmd.
install-mpi-cmd: $(MPI_BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(MPI_BIN) $(DESTDIR)$(BINDIR)/fairshuf-mpi
	install -m 644 docs/fairshuf-mpi.1 $(DESTDIR)$(MANDIR)/man1/

# With the libraries, their pkg-config file (fairshuf_mpi.pc, requiring
# fairshuf.pc and the MPI implementation's module, MPI_PC) and CMake
# package (LIBDIR/cmake/fairshuf_mpi, relocatable as fairshuf's; its
# version file is fairshuf's), written from that install's PREFIX, LIBDIR
# and INCLUDEDIR as make install writes fairshuf's
# (tests/mpi/test_mpi_pkg.sh).
# MPI_PC: Debian's mpi-c (the default MPI's, by alternatives), else Open
# MPI's ompi-c, else MPICH's mpich; none found: the .pc requires fairshuf
# alone, and programs compile with mpicc.
MPI_PC ?= $(shell for m in mpi-c ompi-c mpich; do \
    pkg-config --exists $$m 2>/dev/null && { echo $$m; break; }; done)
MPI_CMAKE_DIR = $(DESTDIR)$(LIBDIR)/cmake/fairshuf_mpi
install-mpi: mpi install-mpi-cmd
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(MANDIR)/man3 \
	    $(DESTDIR)$(LIBDIR)/pkgconfig $(MPI_CMAKE_DIR)
	install -m 644 $(MPI_LIBA) $(DESTDIR)$(LIBDIR)/libfairshuf_mpi.a
	install -m 755 $(MPI_LIBSO) $(DESTDIR)$(LIBDIR)/libfairshuf_mpi.so.$(VERSION)
	ln -sf libfairshuf_mpi.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libfairshuf_mpi.so.$(SOVERSION)
	ln -sf libfairshuf_mpi.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libfairshuf_mpi.so
	install -m 644 include/fairshuf_mpi.h $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 docs/man/fsh_mpi_*.3 $(DESTDIR)$(MANDIR)/man3/
	$(PC_SUBST) -e 's|@MPI_PC@|$(MPI_PC)|' fairshuf_mpi.pc.in \
	    > $(DESTDIR)$(LIBDIR)/pkgconfig/fairshuf_mpi.pc
	$(CMAKE_SED) cmake/fairshuf_mpiConfig.cmake.in > $(MPI_CMAKE_DIR)/fairshuf_mpiConfig.cmake
	$(CMAKE_SED) cmake/fairshufConfigVersion.cmake.in \
	    > $(MPI_CMAKE_DIR)/fairshuf_mpiConfigVersion.cmake
	chmod 644 $(DESTDIR)$(LIBDIR)/pkgconfig/fairshuf_mpi.pc \
	    $(MPI_CMAKE_DIR)/fairshuf_mpiConfig.cmake $(MPI_CMAKE_DIR)/fairshuf_mpiConfigVersion.cmake

uninstall-mpi:
	rm -f $(DESTDIR)$(LIBDIR)/libfairshuf_mpi.* $(DESTDIR)$(INCLUDEDIR)/fairshuf_mpi.h \
	    $(DESTDIR)$(BINDIR)/fairshuf-mpi $(DESTDIR)$(MANDIR)/man1/fairshuf-mpi.1 \
	    $(DESTDIR)$(MANDIR)/man3/fsh_mpi_*.3 $(DESTDIR)$(LIBDIR)/pkgconfig/fairshuf_mpi.pc \
	    $(MPI_CMAKE_DIR)/fairshuf_mpiConfig.cmake $(MPI_CMAKE_DIR)/fairshuf_mpiConfigVersion.cmake
	-rmdir $(MPI_CMAKE_DIR) 2>/dev/null

CLEAN_EXTRA += libfairshuf_mpi.a libfairshuf_mpi.so fairshuf-mpi
