#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test in the workspace, then the
# Python package (python/): its own crate's lints, and pytest in a virtual environment
# made here (target/python-venv) with `pip install ./python`.
# CI runs exactly this (see .ci/run). Beyond the Rust toolchain the end-to-end tests
# need tmux (the terminal game) and Debian's chromium + chromium-driver (the web game);
# they are installed here when missing, and so is axe-core (npm) for the accessibility
# tests.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
command -v npm >/dev/null 2>&1 || missing+=(npm)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${missing[*]} (for the end-to-end tests)"
  if [ "$(id -u)" = 0 ]; then SUDO=(); else SUDO=(sudo); fi
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" </dev/null
fi

# axe-core, the accessibility checker the browser tests run in the page (from npm, kept
# in .axe-core/, which git ignores).
if [ ! -f .axe-core/node_modules/axe-core/axe.min.js ]; then
  echo "== installing axe-core (for the accessibility tests)"
  npm install --prefix .axe-core --no-audit --no-fund --no-save axe-core@4 </dev/null
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo test"
cargo test --workspace --locked

echo "== python package: cargo fmt, cargo clippy (python/ is outside the workspace)"
# Its own lock, the workspace's target directory: shared dependencies build once.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
cargo fmt --manifest-path python/Cargo.toml -- --check
cargo clippy --manifest-path python/Cargo.toml --all-targets --locked -- -D warnings
echo "== python package: pip install ./python into target/python-venv, pytest"
# The match test plays the binary that `cargo test` built.
cargo build -p mancala --locked --quiet
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# open-spiel for the rules comparison (tests/test_openspiel.py), the environments'
# libraries for their checkers, mypy for the stub check; then the package itself,
# built by maturin (release), with the `mancala` command: the debug binary built
# above (MANCALA_CLI_FROM; without it, as for a user, python/build.rs builds a release
# binary of its own).
"$venv/bin/pip" install --quiet --disable-pip-version-check \
  numpy pytest gymnasium pettingzoo open-spiel mypy
MANCALA_CLI_FROM="$CARGO_TARGET_DIR/debug/mancala" \
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
  --force-reinstall --no-deps ./python
echo "== python package: the stubs (stubtest: _core.pyi against the module built; mypy --strict on the examples)"
"$venv/bin/python" -m mypy.stubtest mancala_rs._core
"$venv/bin/python" -m mypy --strict python/examples
MANCALA_BIN="$CARGO_TARGET_DIR/debug/mancala" "$venv/bin/python" -m pytest -q python/tests
