#!/usr/bin/env bash
# The VS Code end-to-end test: package the extension, start code-server with a fresh profile, install the .vsix,
# open a copy of examples/ and drive the workbench with headless Chromium (driver.mjs). The driver prints
# "N passed, N failed"; the exit code is the result. Screenshots go to .e2e/screenshots/ (ignored by git), so
# a test run never modifies the tracked ones; SAFEREQ_E2E_SHOTS=client-vscode/images refreshes the README's.
#
#   bash tests/e2e/vscode/run.sh
#
# Environment: SAFEREQ_E2E_SERVER   server for safereq.server.path (default <repo>/.venv/bin/safereq)
#              SAFEREQ_E2E_WORKSPACE folder to open (default <repo>/examples; copied, never modified)
#              SAFEREQ_E2E_HOME      setup cache (default <repo>/.e2e)
#              SAFEREQ_E2E_SHOTS     where screenshots go (default $SAFEREQ_E2E_HOME/screenshots; relative to
#                                    the repository root)
#              SAFEREQ_E2E_KEEP=1    keep the run folder (profile, logs) even when the test passes
#              SAFEREQ_E2E_TRACE=1   log every LSP message to the safereq output channel (in the run's logs)
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
E2E=${SAFEREQ_E2E_HOME:-$REPO/.e2e}
CS_VERSION=${SAFEREQ_E2E_CODE_SERVER:-4.100.3}
CS="$E2E/code-server-$CS_VERSION/node_modules/.bin/code-server"
SERVER=${SAFEREQ_E2E_SERVER:-$REPO/.venv/bin/safereq}
WORKSPACE=${SAFEREQ_E2E_WORKSPACE:-$REPO/examples}
CLIENT="$REPO/client-vscode"
SHOTS=${SAFEREQ_E2E_SHOTS:-$E2E/screenshots}
case $SHOTS in /*) ;; *) SHOTS="$REPO/$SHOTS" ;; esac  # a relative folder is read from the repository root

bash "$HERE/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }

RUN=$(mktemp -d "$E2E/run.XXXXXX")
echo "[e2e] run folder $RUN"
export XDG_CONFIG_HOME="$RUN/config" XDG_DATA_HOME="$RUN/data" TMPDIR="$RUN/tmp"
mkdir -p "$RUN/user/User" "$RUN/extensions" "$RUN/tmp" "$RUN/ws"

# 1. The .vsix, built from the current sources exactly as a user would build it.
if ! ( cd "$CLIENT" && npm run package && cp dist/safereq.vsix "$RUN/safereq.vsix" ) >"$RUN/package.log" 2>&1; then
  cat "$RUN/package.log"; echo "0 passed, 1 failed"; exit 1
fi

# 2. A fresh profile pointing safereq.server.path at the server under test, and a copy of the workspace.
node -e '
  const fs = require("fs");
  const s = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  s["safereq.server.path"] = process.argv[2];
  if (process.argv[4] === "1") s["safereq.trace.server"] = "verbose";
  fs.writeFileSync(process.argv[3], JSON.stringify(s, null, 2));
' "$HERE/user-settings.json" "$SERVER" "$RUN/user/User/settings.json" "${SAFEREQ_E2E_TRACE:-0}"
cp -r "$WORKSPACE" "$RUN/ws/"
WS_COPY="$RUN/ws/$(basename "$WORKSPACE")"
rm -rf "$WS_COPY/.safereq"

if ! "$CS" --user-data-dir "$RUN/user" --extensions-dir "$RUN/extensions" \
    --install-extension "$RUN/safereq.vsix" >"$RUN/install.log" 2>&1; then
  cat "$RUN/install.log"; echo "0 passed, 1 failed"; exit 1
fi

# 3. code-server in its own process group, so that the whole tree (extension host, language server) is
#    stopped by its id afterwards.
# No safereq on code-server's PATH: the server comes from safereq.server.path only, and the driver can check
# what a user without a server sees.
CS_PATH=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do [ -n "$d" ] && [ ! -e "$d/safereq" ] && printf '%s:' "$d"; done)
PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
PATH="${CS_PATH%:}" setsid "$CS" --auth none --bind-addr "127.0.0.1:$PORT" --user-data-dir "$RUN/user" --extensions-dir "$RUN/extensions" \
  --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  "$WS_COPY" >"$RUN/code-server.log" 2>&1 &
CS_PID=$!
cleanup() { kill -- -"$CS_PID" 2>/dev/null; wait "$CS_PID" 2>/dev/null; }
trap cleanup EXIT
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
  kill -0 "$CS_PID" 2>/dev/null || break
  sleep 0.25
done

# 4. The browser side.
SAFEREQ_E2E_RUN="$RUN" node "$HERE/driver.mjs" --url "http://127.0.0.1:$PORT" --workspace "$WS_COPY" \
  --screenshots "$SHOTS" --logs "$RUN/user/logs"
RC=$?
cleanup
trap - EXIT
if [ $RC -eq 0 ] && [ "${SAFEREQ_E2E_KEEP:-0}" != 1 ]; then
  rm -rf "$RUN"
else
  echo "[e2e] kept $RUN (code-server.log, user/logs/ has the extension host and safereq output)"
fi
exit $RC
