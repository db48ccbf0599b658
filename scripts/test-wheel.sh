#!/usr/bin/env bash
# Install a built distribution into a fresh virtual environment and run the test suite
# against the installed package, not the source tree: no Rust toolchain on PATH, the
# checkout's python/ directory nowhere on sys.path, and a check that `triple_draw` is
# imported from the new environment.
#
# Usage: scripts/test-wheel.sh DIST [EXTRAS] [pytest arguments...]
#   DIST    a wheel (or an sdist, which pip then builds: that needs Rust, so PATH is kept)
#   EXTRAS  comma-separated extras to install with it (default: dev)
# Environment: PYTHON (default python3, or python where there is no python3) creates the
# environment; TD_VENV (default .venv) is where it goes, left in place afterwards.
# Used by scripts/check-manylinux-wheel.sh, .ci/run and the GitHub workflows (Linux,
# macOS, and Windows under Git Bash).
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 DIST [EXTRAS] [pytest arguments...]" >&2
    exit 2
fi
DIST=$1
EXTRAS=${2:-dev}
shift $(($# < 2 ? $# : 2))
cd "$(dirname "$0")/.."
ROOT=$PWD
[ -f "$DIST" ] || { echo "no such file: $DIST" >&2; exit 2; }
DIST=$(cd "$(dirname "$DIST")" && pwd)/$(basename "$DIST")
PYTHON=${PYTHON:-$(command -v python3 || command -v python)}
VENV=${TD_VENV:-.venv}

rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
VENV=$(cd "$VENV" && pwd)
if [ -d "$VENV/Scripts" ]; then BIN=$VENV/Scripts; else BIN=$VENV/bin; fi
"$BIN/python" -m pip install -q --upgrade pip
spec=$DIST
[ -n "$EXTRAS" ] && spec="$DIST[$EXTRAS]"
case $DIST in
    *.whl) "$BIN/python" -m pip install "$spec" ;;
    *) "$BIN/python" -m pip install -v "$spec" ;;  # an sdist: show the Rust build
esac

# PATH for the tests: the environment first, and no directory that holds cargo or rustc
# (a wheel must work on a machine without Rust).
clean_path=$BIN
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    case $DIST in *.whl) ;; *) clean_path="$clean_path:$d"; continue ;; esac
    if [ -e "$d/cargo" ] || [ -e "$d/rustc" ] || [ -e "$d/cargo.exe" ] || [ -e "$d/rustc.exe" ]; then
        continue
    fi
    clean_path="$clean_path:$d"
done

where=$(cd / && env -u PYTHONPATH PATH="$clean_path" python -c \
    'import triple_draw, importlib.metadata as m; print(triple_draw.__file__); print(m.version("triple_draw"))')
echo "testing triple_draw $(echo "$where" | tail -n 1) from $(echo "$where" | head -n 1)"
case $(echo "$where" | head -n 1 | tr '\\' '/') in
    "$ROOT"/python/*) echo "triple_draw is imported from the source tree, not the install" >&2; exit 1 ;;
esac

# Neither directory pytest puts on sys.path holds an importable triple_draw: tests/ (for
# the shared helpers in conftest.py and the server tests' server_util.py) and the
# checkout's root (the package's source is under python/, which is not on the path).
env -u PYTHONPATH PATH="$clean_path" TD_TEST_INSTALLED=1 \
    python -m pytest -p no:cacheprovider "$@"
