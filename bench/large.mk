# SPDX-License-Identifier: MIT
# Issue 13: the scatter shuffle at 1e8 elements with its phase split (rough
# pass, fix-up, buckets), memcpy of the array beside it, one thread and two,
# interleaved. Builds its own copy of the library with the scatter's phase
# timing compiled in (-DFSH_SCATTER_TIMING) under bench/bin/large-lib, so
# the normal build is untouched. From the top of the tree:
#
#   make -f bench/large.mk                 # 1e8, xoshiro256++ then ChaCha20
#   make -f bench/large.mk LARGE_N=3e7 LARGE_REPS=9 LARGE_THREADS=1,2
#
# Needs about 1.6 GB of RAM at 1e8 (the array and the memcpy target).
LARGE_N       ?= 1e8
LARGE_REPS    ?= 5
LARGE_THREADS ?= 1,2
LARGE_GENS    ?= xoshiro chacha20
LARGE_LIB      = bench/bin/large-lib/libfairshuf.a

.PHONY: large large-lib
large: bench/bin/large
	@uptime
	@for g in $(LARGE_GENS); do \
	    bench/bin/large $(LARGE_N) $$g $(LARGE_REPS) $(LARGE_THREADS) 1 || exit 1; \
	done
	@uptime

large-lib:
	@$(MAKE) --no-print-directory -s BUILD=bench/bin/large-lib \
	    OUT=bench/bin/large-lib CFLAGS="-O2 -DFSH_SCATTER_TIMING" $(LARGE_LIB)

bench/bin/large: bench/large.c large-lib
	$(CC) -std=c11 -O2 -D_GNU_SOURCE -Iinclude -o $@ bench/large.c \
	    $(LARGE_LIB) -lsodium -lm -lpthread
