#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test in the workspace.
# CI runs exactly this (see .ci/run). Beyond the Rust toolchain it needs tmux, for the
# end-to-end test of the terminal game; it is installed here when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v tmux >/dev/null 2>&1; then
  echo "== installing tmux (for the terminal game's end-to-end test)"
  if [ "$(id -u)" = 0 ]; then SUDO=(); else SUDO=(sudo); fi
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux </dev/null
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo test"
cargo test --workspace --locked
