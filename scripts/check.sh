#!/usr/bin/env bash
# Every check a change should pass before it lands: formatting, clippy on all
# targets (warnings are errors), the test suite and the documentation build.
# CI (`.ci/run`) runs the same formatting, clippy and test steps, but not the
# documentation build; run this before pushing.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --check
cargo clippy --all-targets -- -D warnings
cargo test
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
