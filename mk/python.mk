# SPDX-License-Identifier: MIT
# The Python package (python/, issue 16): the extension is built with
# Debian's Python into $(BUILD)/python/lib for make check (setuptools skips
# it when up to date), bench-python runs python/bench.py against numpy
# (-P: not the source tree's python/fairshuf, which lacks the built module).
# Without Python.h or setuptools the build step says so and does nothing;
# tests/python/test_python.sh then skips.
FSH_PYTHON ?= /usr/bin/python3
PY_LIB      = $(BUILD)/python/lib

.PHONY: python-ext bench-python

python-ext: $(LIBA) $(BIN)
	@if $(FSH_PYTHON) -c 'import os, sysconfig, setuptools; assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' 2>/dev/null; then \
	    cd python && $(FSH_PYTHON) setup.py -q build -j2 --build-lib ../$(PY_LIB) \
	        --build-temp ../$(BUILD)/python/tmp; \
	else echo "python-ext: no Python.h or setuptools for $(FSH_PYTHON): not built"; fi

bench-python: python-ext
	PYTHONPATH=$(PY_LIB) $(FSH_PYTHON) -P python/bench.py $(PY_BENCH_ARGS)

CHECK_DEPS    += python-ext
BENCH_TARGETS += bench-python
CLEAN_EXTRA   += python/build python/fairshuf.egg-info python/fairshuf/_fairshuf*.so \
                 python/fairshuf/__pycache__ python/tests/__pycache__ python/.pytest_cache
