#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test in the workspace.
# CI runs exactly this (see .ci/run); it needs nothing beyond the Rust toolchain yet.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo test"
cargo test --workspace --locked
