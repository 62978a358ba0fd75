#!/bin/sh
# SPDX-License-Identifier: MIT
# Every tracked source file (git ls-files) names its licence on its first
# comment line: "SPDX-License-Identifier: MIT" on line 1, or on line 2 after
# a "#!" or "<!DOCTYPE" line (issue 14). Data files are not sources and are
# left out: fuzz corpora and regression inputs, golden and benchmark data
# (.csv, .json), images, dictionaries, Markdown documents, the licence text,
# dotfiles other than .ci/run, Debian metadata other than debian/rules,
# symbol and ABI lists, and manual link pages (a single ".so" line). A file
# added without the line fails here.
NAME=test_spdx
. "$(dirname "$0")/lib.sh"
top=$(pwd)
if ! command -v git >/dev/null 2>&1 || ! git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    skipped "not a git checkout"
    finish
    exit 0
fi
git -C "$top" ls-files >"$T/files" || { bad "git ls-files"; finish; exit 1; }
n=0
while IFS= read -r f; do
    case $f in
    */corpus/* | */regress/* | *.md | *.csv | *.json | *.png | *.jpg | *.svg | \
        *.dict | *.txt | *.symbols | abi/* | LICENSE | .gitignore | */.gitignore | \
        .clang-format | .gitattributes)
        continue ;;
    debian/rules) ;;
    debian/*) continue ;;
    esac
    [ -f "$top/$f" ] || continue
    # A manual link page: only ".so man3/other.3".
    if [ "$(wc -l <"$top/$f")" -le 1 ] && grep -q '^\.so ' "$top/$f"; then continue; fi
    n=$((n + 1))
    first=$(head -n 1 "$top/$f")
    case $first in
    '#!'* | '<!DOCTYPE'* | '<!doctype'*) line=$(sed -n 2p "$top/$f") ;;
    *) line=$first ;;
    esac
    case $line in
    *'SPDX-License-Identifier: MIT'*) ok ;;
    *) bad "$f: no \"SPDX-License-Identifier: MIT\" on its first comment line" ;;
    esac
done <"$T/files"
[ "$n" -gt 50 ] || bad "only $n source files found"
finish
