# SPDX-License-Identifier: MIT
# Issue 13's targets read off the machine at hand in one run
# (bench/targets.sh: in cache against the batched peer and the textbook
# loop, instructions per element, 1e8 against memcpy, the command against
# GNU shuf): about 5 minutes; COLD=1 adds the cold rows (20 minutes more),
# TERASHUF=path the external-mode row. Not part of `make bench`, which
# already runs each of these programs at more sizes.
.PHONY: bench-targets
bench-targets: all
	bash bench/targets.sh
