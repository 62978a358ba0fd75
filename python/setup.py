# SPDX-License-Identifier: MIT
"""Build the fairshuf Python package: one C extension, fairshuf._fairshuf,
with the library's own sources (../src/*/*.c, which also include
../include and ../shared) compiled in, so the installed module needs
libsodium but no libfairshuf.so.

Works offline with Debian's setuptools:
    pip install --no-build-isolation ./python      (pip 23 builds in tree)
    python3 setup.py build_ext --inplace
FAIRSHUF_ROOT may point at another source tree; WERROR=1 adds -Werror.
"""
import glob
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("FAIRSHUF_ROOT") or os.path.dirname(HERE)
if not (os.path.isfile(os.path.join(ROOT, "include", "fairshuf.h"))
        and os.path.isdir(os.path.join(ROOT, "shared"))):
    raise SystemExit(
        "fairshuf: cannot find the library sources (../include, ../src, ../shared); "
        "build from the fairshuf source tree or set FAIRSHUF_ROOT")

lib_sources = sorted(glob.glob(os.path.join(ROOT, "src", "*", "*.c")))
with open(os.path.join(ROOT, "include", "fairshuf.h"), encoding="utf-8") as f:
    parts = dict(re.findall(r"#define FSH_VERSION_(MAJOR|MINOR|PATCH) (\d+)", f.read()))
version = "%s.%s.%s" % (parts["MAJOR"], parts["MINOR"], parts["PATCH"])

args = ["-std=c11", "-D_GNU_SOURCE", "-fvisibility=hidden", "-O2",
        "-Wall", "-Wextra"]
if os.environ.get("WERROR") == "1":
    args.append("-Werror")



class BuildExt(build_ext):
    """Compiles the extension's sources (the library's thirty-odd files)
    on every CPU this process may use, or as many as -j (--parallel) says:
    setuptools' own -j runs several extensions at once, and this package
    has one."""

    def build_extensions(self):
        jobs = self.parallel if isinstance(self.parallel, int) and \
            not isinstance(self.parallel, bool) and self.parallel > 0 else \
            (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
             else (os.cpu_count() or 1))
        self.parallel = None  # one extension: setuptools' -j has no use
        compile_many = self.compiler.compile

        def compile_each(sources, **kw):
            if jobs < 2 or len(sources) < 2:
                return compile_many(sources, **kw)
            with ThreadPoolExecutor(jobs) as pool:  # each runs a compiler
                parts = list(pool.map(lambda s: compile_many([s], **kw),
                                      sources))
            return [o for objs in parts for o in objs]

        self.compiler.compile = compile_each
        # The extension exports PyInit__fairshuf alone. The library's
        # sources mark their API FSH_API (default visibility), which would
        # put every fsh_* function in the module's dynamic symbol table;
        # where the interpreter links extensions without
        # -Bsymbolic-functions (Debian's does, pyenv's and python.org's
        # builds do not) the module's own calls to them could then bind to
        # a libfairshuf.so already in the process, another version. GNU ld,
        # gold and lld take a version script; macOS's ld does not.
        if self.compiler.compiler_type == "unix" and sys.platform != "darwin":
            os.makedirs(self.build_temp, exist_ok=True)
            script = os.path.join(self.build_temp, "_fairshuf.map")
            with open(script, "w", encoding="utf-8") as f:
                f.write("{ global: PyInit__fairshuf; local: *; };\n")
            for ext in self.extensions:
                ext.extra_link_args = list(ext.extra_link_args or []) + \
                    ["-Wl,--version-script=" + script]
        super().build_extensions()


setup(
    name="fairshuf",
    cmdclass={"build_ext": BuildExt},
    version=version,
    description="Exactly uniform, reachable, reproducible shuffles and "
                "samples (libfairshuf) for Python and numpy",
    license="MIT",
    packages=["fairshuf"],
    package_data={"fairshuf": ["py.typed", "*.pyi"]},
    ext_modules=[
        Extension(
            "fairshuf._fairshuf",
            sources=["fairshuf/_fairshuf.c"] + lib_sources,
            include_dirs=[os.path.join(ROOT, "include"), os.path.join(ROOT, "src")],
            libraries=["sodium", "m", "pthread"],
            # rebuilt when this file changes (its flags and link arguments)
            depends=[os.path.join(HERE, "setup.py")],
            extra_compile_args=args,
        )
    ],
    python_requires=">=3.8",
    zip_safe=False,
)
