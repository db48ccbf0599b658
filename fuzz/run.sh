#!/bin/sh
# Runs every cargo-fuzz target of the compiled core for a bounded time.
#
#   fuzz/run.sh [SECONDS_PER_TARGET]     (default 10; CI uses 12: about 60 s in all)
#
# Each target starts from its committed seed corpus (fuzz/seeds/<target>/) and writes the
# inputs it discovers to a scratch corpus (fuzz/corpus/<target>/, not committed), so a
# later, longer run carries on from there:
#
#   fuzz/run.sh 3600
#
# A crash stops the script with a non-zero status; the crashing input is saved under
# fuzz/artifacts/<target>/ and can be replayed with
#   cargo +nightly fuzz run <target> fuzz/artifacts/<target>/<file>
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). On a stable toolchain RUSTC_BOOTSTRAP=1
# unlocks the -Z flags cargo-fuzz passes.
set -eu
seconds=${1:-10}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."

if ! cargo fuzz --help >/dev/null 2>&1; then
    echo "fuzz/run.sh: cargo-fuzz is not installed (cargo install cargo-fuzz)" >&2
    exit 2
fi
# FUZZ_SANITIZER=address runs the targets under AddressSanitizer (needs a nightly toolchain);
# the default builds them on the active toolchain without a sanitizer, which is what CI
# does: the core is safe Rust, so panics and hangs are what the targets look for.
sanitizer=${FUZZ_SANITIZER:-none}
if [ "$sanitizer" != none ]; then
    set -- cargo +nightly fuzz
else
    export RUSTC_BOOTSTRAP=1
    set -- cargo fuzz
fi

targets="card_parsing evaluator deck_state analysis_options"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "$@" build --sanitizer "$sanitizer" >"$log" 2>&1; then
    cat "$log" >&2
    exit 1
fi
for t in $targets; do
    mkdir -p "fuzz/corpus/$t"
    if ! "$@" run --sanitizer "$sanitizer" "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 >"$log" 2>&1; then
        tail -40 "$log" >&2
        echo "fuzz/run.sh: $t found a failing input, saved under fuzz/artifacts/$t/" >&2
        exit 1
    fi
    echo "fuzz/run.sh: $t ran ${seconds}s: $(grep -E '^#[0-9]+' "$log" | tail -1 | cut -c1-60)"
done
echo "fuzz/run.sh: every target ran ${seconds}s without a failure"
