# SPDX-License-Identifier: MIT
# Issue 13: the scatter shuffle at 1e8 elements with its phase split (rough
# pass, fix-up, buckets), memcpy of the array beside it, one thread and two,
# interleaved. Builds its own copy of the library with the scatter's phase
# timing compiled in (-DFSH_SCATTER_TIMING) under bench/bin/large-lib, so
# the normal build is untouched. From the top of the tree:
#
#   make -f bench/large.mk                 # 1e8: xoshiro256++, ChaCha8 (the
#                                          # OS-keyed default), ChaCha20
#   make -f bench/large.mk LARGE_N=3e7 LARGE_REPS=9 LARGE_THREADS=1,2
#   make -f bench/large.mk LARGE_THP=1     # both arrays on huge pages
#
# Measurement builds (a separate library and binary per LARGE_TAG; never the
# normal build): LARGE_CFLAGS is added to the library's CFLAGS, e.g. the
# small-leaf prototype of docs/PERFORMANCE.md (issue 13, session 7), which
# gives other seeded outputs (its hashes differ; only its speed is
# measured):
#
#   make -f bench/large.mk LARGE_TAG=-k1024 \
#       LARGE_CFLAGS="-DFSH_SCATTER_KMAX=1024 -DFSH_SCATTER_BASE_BYTES=1048576"
#
# Stream versions 2 and 3 side by side (issue 13, session 14: version 3's
# forward Fisher-Yates from 6 MiB and forward scatter leaves), interleaved
# in one process for each size (THREADS 1v2,1v3), ChaCha8 (the OS-keyed
# default) and ChaCha20 (a seeded rng's), one thread:
#
#   make -f bench/large.mk versions        # 4 to 16 MiB of u64, and 1e8
#   make -f bench/large.mk versions VERSIONS_N="1e6 1.5e6" VERSIONS_REPS=51
#
# Needs about 1.6 GB of RAM at 1e8 (the array and the memcpy target).
LARGE_N       ?= 1e8
LARGE_REPS    ?= 5
LARGE_THREADS ?= 1,2
LARGE_GENS    ?= xoshiro chacha8 chacha20
LARGE_THP     ?= 0
LARGE_CFLAGS  ?=
LARGE_TAG     ?=
LARGE_DIR      = bench/bin/large-lib$(LARGE_TAG)
LARGE_LIB      = $(LARGE_DIR)/libfairshuf.a
LARGE_BIN      = bench/bin/large$(LARGE_TAG)

VERSIONS_N    ?= 5e5 7.5e5 8.75e5 1e6 1.25e6 1.5e6 2e6 1e8
VERSIONS_GENS ?= chacha8 chacha20
VERSIONS_REPS ?= 21

.PHONY: large large-lib versions
large: $(LARGE_BIN)
	@uptime
	@for g in $(LARGE_GENS); do \
	    $(LARGE_BIN) $(LARGE_N) $$g $(LARGE_REPS) $(LARGE_THREADS) 1 \
	        $(LARGE_THP) || exit 1; \
	done
	@uptime

versions: $(LARGE_BIN)
	@uptime
	@for n in $(VERSIONS_N); do for g in $(VERSIONS_GENS); do \
	    $(LARGE_BIN) $$n $$g $(VERSIONS_REPS) 1v2,1v3 1 $(LARGE_THP) \
	        | grep -v 'rough pass' || exit 1; \
	done; done
	@uptime

large-lib:
	@$(MAKE) --no-print-directory -s BUILD=$(LARGE_DIR) OUT=$(LARGE_DIR) \
	    CFLAGS="-O2 -DFSH_SCATTER_TIMING $(LARGE_CFLAGS)" $(LARGE_LIB)

$(LARGE_BIN): bench/large.c large-lib
	$(CC) -std=c11 -O2 -D_GNU_SOURCE -Iinclude -o $@ bench/large.c \
	    $(LARGE_LIB) -lsodium -lm -lpthread
