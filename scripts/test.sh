#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine, then run the whole test suite:
#   1. Python tests (pytest): unit tests, pytest-lsp end-to-end tests, the Neovim end-to-end test;
#   2. the VS Code extension's unit tests (node's test runner);
#   3. the VS Code end-to-end test (code-server in headless Chromium; about 4 minutes of one-time setup).
# Idempotent: a second run reuses the virtual environment, npm packages and the code-server install.
# SAFEREQ_SKIP_VSCODE_E2E=1 leaves out step 3 (for quick local runs).
# Every suite runs even when an earlier one failed; the exit code is non-zero when any failed. The run leaves
# the checkout as it found it (with CI=true, a tracked file it changed or a new file git does not ignore fails the run).
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
[ -z "$MISSING" ] || bash scripts/apt-install.sh $MISSING  # waits for a dpkg lock another process holds

say "setup: sarif-multitool (npm) for the GitHub SARIF ingestion test"
SARIF_TOOL_DIR=.cache/sarif-multitool
if [ ! -x "$SARIF_TOOL_DIR/node_modules/.bin/sarif-multitool" ]; then
  mkdir -p "$SARIF_TOOL_DIR"
  npm install --prefix "$SARIF_TOOL_DIR" --no-audit --no-fund --loglevel=error @microsoft/sarif-multitool@5.7.0
fi

say "setup: StrictDoc (own environment: it pins versions the project's environment does not take)"
STRICTDOC_DIR=.cache/strictdoc
if [ ! -x "$STRICTDOC_DIR/bin/strictdoc" ]; then
  "$PY" -m venv "$STRICTDOC_DIR"
  "$STRICTDOC_DIR/bin/python" -m pip install -q "strictdoc==0.30.4"
fi

say "setup: the MCP Inspector's CLI (npm) for the MCP server test"
bash scripts/install_mcp_inspector.sh

say "setup: Python environment (.venv)"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e ".[dev]"

# The checkout before the tests, to tell afterwards whether they changed a tracked file.
tracked_state() {  # (outside a git checkout: always the same)
  { git diff HEAD --no-ext-diff --binary || true; git ls-files --others --exclude-standard || true; } 2>/dev/null | sha1sum
}
BEFORE=$(tracked_state)

FAILED=()
suite() {  # suite NAME COMMAND...: run one suite, remember a failure, go on with the next
  say "tests: $1"
  local name=$1; shift
  if "$@"; then :; else FAILED+=("$name"); fi
}
suite "Python (pytest)" .venv/bin/python -m pytest -q -p no:cacheprovider
suite "VS Code extension unit tests (node --test)" \
  bash -c 'cd client-vscode && npm ci --no-audit --no-fund --loglevel=error && npm test'
if [ "${SAFEREQ_SKIP_VSCODE_E2E:-0}" != "1" ]; then
  suite "VS Code end-to-end (code-server + headless Chromium)" bash tests/e2e/vscode/run.sh
fi

if [ "$(tracked_state)" != "$BEFORE" ]; then
  say "the tests changed the checkout (tracked files, or new files git does not ignore):"
  git status --short
  [ "${CI:-}" != "true" ] || FAILED+=("a clean checkout")
fi

if [ ${#FAILED[@]} -gt 0 ]; then
  printf -v joined '%s; ' "${FAILED[@]}"
  say "FAILED: ${joined%; }"
  exit 1
fi
say "all suites passed"
