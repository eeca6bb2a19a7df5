#!/usr/bin/env bash
# All tests: formatting, lints, the workspace's tests (optimised test profile), then the
# conformance checks against the course material when ../shared/data (or $DATA_DIR) exists.
# CI (CI set) requires the course material to be present.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${DATA_DIR:-../shared/data}"

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings
echo "== cargo test"
cargo test --workspace --quiet
if [ -d "$data" ]; then
    echo "== conformance against $data"
    scripts/conformance.sh "$data"
elif [ -n "${CI:-}" ]; then
    echo "CI: course material not found at $data" >&2
    exit 1
else
    echo "== conformance skipped: $data not found"
fi
