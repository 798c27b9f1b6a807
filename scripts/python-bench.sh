#!/usr/bin/env bash
# The Python package's batch benchmark (scripts/python_bench.py): VectorGame with a numpy
# random-legal-move policy against OpenSpiel's Python loop, side by side.
# Installs numpy, open-spiel and the package (a release build of python/) into
# target/python-venv (the virtual environment scripts/test.sh makes), then runs it;
# arguments go to the script (--n, --seconds, --min-ratio).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check numpy open-spiel
# The wheel carries the `mancala` command, which the benchmark does not use: a binary
# built already is handed over (python/build.rs) rather than a release build made for it.
for bin in "$CARGO_TARGET_DIR/release/mancala" "$CARGO_TARGET_DIR/debug/mancala"; do
  if [ -x "$bin" ]; then export MANCALA_CLI_FROM="$bin"; break; fi
done
"$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
exec "$venv/bin/python" scripts/python_bench.py "$@"
