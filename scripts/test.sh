#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine, then run the whole test suite.
# Idempotent: a second run reuses the virtual environment and caches.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-python3}

echo "== setup: Python environment (.venv)"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e ".[dev]"

echo "== tests: Python (pytest)"
.venv/bin/python -m pytest -q -p no:cacheprovider
