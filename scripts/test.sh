#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine, then run the whole test suite:
#   1. Python tests (pytest): unit tests, pytest-lsp end-to-end tests, the Neovim end-to-end test;
#   2. the VS Code extension's unit tests (node's test runner);
#   3. the VS Code end-to-end test (code-server in headless Chromium; about 4 minutes of one-time setup).
# Idempotent: a second run reuses the virtual environment, npm packages and the code-server install.
# SAFEREQ_SKIP_VSCODE_E2E=1 leaves out step 3 (for quick local runs).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
say() { printf '\n== %s\n' "$*"; }

say "setup: Debian packages for the editor and report tests (neovim, graphviz, chromium, gtest)"
MISSING=""
command -v nvim >/dev/null 2>&1 || MISSING="$MISSING neovim"
command -v dot >/dev/null 2>&1 || MISSING="$MISSING graphviz"
command -v chromium >/dev/null 2>&1 || MISSING="$MISSING chromium"
[ -f /usr/include/gtest/gtest.h ] || MISSING="$MISSING libgtest-dev g++"  # real gtest JUnit output
if [ -n "$MISSING" ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $MISSING >/dev/null
fi

say "setup: sarif-multitool (npm) for the GitHub SARIF ingestion test"
SARIF_TOOL_DIR=.cache/sarif-multitool
if [ ! -x "$SARIF_TOOL_DIR/node_modules/.bin/sarif-multitool" ]; then
  mkdir -p "$SARIF_TOOL_DIR"
  npm install --prefix "$SARIF_TOOL_DIR" --no-audit --no-fund --loglevel=error @microsoft/sarif-multitool@5.7.0
fi

say "setup: Python environment (.venv)"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e ".[dev]"

say "tests: Python (pytest)"
.venv/bin/python -m pytest -q -p no:cacheprovider

say "tests: VS Code extension unit tests (node --test)"
(cd client-vscode && npm ci --no-audit --no-fund --loglevel=error && npm test)

if [ "${SAFEREQ_SKIP_VSCODE_E2E:-0}" != "1" ]; then
  say "tests: VS Code end-to-end (code-server + headless Chromium)"
  bash tests/e2e/vscode/run.sh
fi
