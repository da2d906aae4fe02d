#!/usr/bin/env bash
# Open a workspace in headless Neovim with the safereq language server and print the diagnostics.
# Usage: tests/e2e/nvim/run.sh [ROOT [FILE...]]   (default: the repository's examples/, every Markdown file)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
ROOT=$(cd "${1:-$REPO/examples}" && pwd)
shift || true
if [ $# -gt 0 ]; then FILES=$(IFS=';'; echo "$*"); else FILES=$(cd "$ROOT" && find . -name '*.md' | sed 's|^\./||' | sort | paste -sd ';'); fi
export SAFEREQ_NVIM_PYTHON=${SAFEREQ_NVIM_PYTHON:-$REPO/.venv/bin/python} SAFEREQ_NVIM_ROOT=$ROOT SAFEREQ_NVIM_FILES=$FILES
exec timeout 120 nvim --headless --clean -u "$HERE/init.lua"
