#!/usr/bin/env bash
# Prove that the portable Linux wheel builds and works, with no container:
#
#   1. build the manylinux2014 (glibc 2.17) x86_64 abi3 wheel with maturin, linking with zig
#      (from the `ziglang` PyPI package) against glibc 2.17 symbols;
#   2. check its platform tag with `auditwheel show` (the tag the wheel claims must be one
#      auditwheel agrees with, and no newer than manylinux_2_17);
#   3. install it with the `dev` extras into a fresh virtual environment and run the test
#      suite against the installed package with no Rust toolchain on PATH and the source
#      tree's python/ directory nowhere on sys.path (scripts/test-wheel.sh).
#
# Usage: scripts/check-manylinux-wheel.sh [pytest arguments...]
# Environment: PYTHON (default python3) builds the virtual environments; TD_VENV (default
# .venv) is where the tested environment goes, left in place for further checks (.ci/run
# runs ruff and mypy from it). The wheel is left in target/wheelcheck/dist;
# TD_STOP_AFTER_BUILD=1 stops once it is built and checked (.ci/run tests it itself).
# Needs: a Rust toolchain, CPython >= 3.10 with venv and pip, network access to PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PYTHON=${PYTHON:-python3}
VENV=${TD_VENV:-.venv}
WORK=$ROOT/target/wheelcheck
DIST=$WORK/dist

step() { printf '\n=== %s (%ss)\n' "$*" "$SECONDS"; }

step "build tools: maturin, ziglang, auditwheel"
rm -rf "$WORK"
mkdir -p "$WORK"
"$PYTHON" -m venv "$WORK/tools"
"$WORK/tools/bin/python" -m pip install -q --upgrade pip
"$WORK/tools/bin/python" -m pip install -q 'maturin>=1.7,<2' ziglang auditwheel

step "build the manylinux2014 x86_64 wheel (release profile, zig as the linker)"
# maturin finds zig as `python -m ziglang` of the interpreter on PATH: the tools venv's.
PATH="$WORK/tools/bin:$PATH" maturin build --release --zig \
    --compatibility manylinux2014 --target x86_64-unknown-linux-gnu --out "$DIST"
shopt -s nullglob
wheels=("$DIST"/*.whl)
if [ "${#wheels[@]}" -ne 1 ]; then
    echo "expected one wheel in $DIST, found: ${wheels[*]:-none}" >&2
    exit 1
fi
WHEEL=${wheels[0]}
name=$(basename "$WHEEL")
echo "built $name ($(du -k "$WHEEL" | cut -f1) KiB)"
case $name in
    *-cp310-abi3-*manylinux2014_x86_64*.whl) ;;
    *) echo "unexpected wheel tags: $name (want cp310-abi3, manylinux2014_x86_64)" >&2; exit 1 ;;
esac

step "auditwheel show"
report=$("$WORK/tools/bin/auditwheel" show "$WHEEL")
echo "$report"
tag=$(printf '%s\n' "$report" | grep -o 'manylinux_2_[0-9]*_x86_64' | head -n 1)
glibc_minor=${tag#manylinux_2_}
glibc_minor=${glibc_minor%_x86_64}
if [ -z "$tag" ] || [ "$glibc_minor" -gt 17 ]; then
    echo "auditwheel does not find the wheel consistent with manylinux_2_17 (got '${tag}')" >&2
    exit 1
fi
echo "auditwheel: consistent with $tag (manylinux2014 = manylinux_2_17 or older)"

[ "${TD_STOP_AFTER_BUILD:-0}" = 1 ] && exit 0

step "fresh virtual environment $VENV: the wheel with the dev extras, then the test suite"
TD_VENV=$VENV PYTHON=$PYTHON bash scripts/test-wheel.sh "$WHEEL" dev "$@"
step "done"
