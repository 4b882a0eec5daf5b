#!/usr/bin/env bash
# Every check a change should pass before it lands: formatting, clippy on all
# targets (warnings are errors), the test suite and the documentation build.
# CI (`.ci/run`) runs the same formatting, clippy and test steps, but not the
# documentation build; run this before pushing.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo build --no-default-features
cargo test
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
