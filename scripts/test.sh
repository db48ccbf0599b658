#!/usr/bin/env bash
# Installs triple_draw with its test extras into the active Python environment, then runs
# every test: the pure Rust tests (cargo) and the Python suite (pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q '.[test]'
cargo test --release --quiet
python -m pytest -q -p no:cacheprovider "$@"
