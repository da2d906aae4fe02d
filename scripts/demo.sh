#!/usr/bin/env bash
# The main job on the embedded defaults, on a fresh machine, offline:
#   set up the environment, index the shipped corpora, check the example workspace,
#   and ask the assistant for derived requirements of one example item.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}

echo "== setup: Python environment (.venv)"
[ -x .venv/bin/python ] || "$PY" -m venv .venv || exit 1
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e . || exit 1
SAFEREQ=.venv/bin/safereq

echo "== safereq index (the shipped corpora and clause catalogue, into .safereq/index)"
"$SAFEREQ" index || exit 1

echo "== safereq search \"ASIL decomposition independence\" --limit 3"
"$SAFEREQ" search "ASIL decomposition independence" --limit 3 || exit 1

echo "== safereq check examples/"
"$SAFEREQ" check examples/
status=$?
echo "(safereq check exits 1 when errors remain: the examples keep a few on purpose; exit status $status)"
[ "$status" -le 1 ] || exit "$status"

echo "== safereq derive examples/functional-safety-concept.md#FSR-2"
"$SAFEREQ" derive examples/functional-safety-concept.md#FSR-2 || exit 1
