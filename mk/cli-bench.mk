# SPDX-License-Identifier: MIT
# The command against GNU shuf (and terashuf with TERASHUF=path): bench/cli.sh
# (issue 13). `make bench` runs the warm rows (QUICK=1, a few minutes);
# `make bench-cli` runs every row, warm and cold (about 20 minutes: each
# cold run waits COLD_IDLE seconds). Data in BENCH_DIR (default
# /tmp/fsh-bench, 1.1 GB).
.PHONY: bench-cli bench-cli-quick
BENCH_TARGETS += bench-cli-quick
bench-cli: all
	bench/cli.sh ./fairshuf
bench-cli-quick: all
	QUICK=1 bench/cli.sh ./fairshuf
