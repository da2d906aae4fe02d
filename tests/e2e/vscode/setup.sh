#!/usr/bin/env bash
# One-time (idempotent) setup for the VS Code end-to-end test: Debian packages (Chromium, ripgrep, headers for
# code-server's native modules), the project's Python environment, code-server, and the extension's npm packages.
# Only the registries this project may use are touched (apt, PyPI, npm); each step is skipped when already done.
# Everything downloaded lands under $SAFEREQ_E2E_HOME (default: <repo>/.e2e, gitignored).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
E2E=${SAFEREQ_E2E_HOME:-$REPO/.e2e}
# 4.100.3 is the newest code-server whose engines.node accepts Node 20 (the machine's Node).
CS_VERSION=${SAFEREQ_E2E_CODE_SERVER:-4.100.3}
# code-server 4.100.3 pins @vscode/ripgrep 1.15.11, whose postinstall fetches this archive from GitHub.
RG_CACHE_NAME=vscode-ripgrep-cache-1.15.11
RG_ARCHIVE=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz

say() { printf '[e2e setup] %s\n' "$*"; }
mkdir -p "$E2E/tmp"
export npm_config_cache="$E2E/npm-cache" TMPDIR="$E2E/tmp"

# 1. Debian packages.
# fonts-wqy-microhei: CJK glyphs, so the Chinese example renders in screenshots.
APT_PACKAGES=(chromium fonts-wqy-microhei ripgrep build-essential pkg-config libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev curl)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  bash "$REPO/scripts/apt-install.sh" "${missing[@]}"  # waits for a dpkg lock another process holds
fi

# 2. The project's Python environment with safereq installed (editable), if the clone has none yet.
if [ ! -x "$REPO/.venv/bin/safereq" ]; then
  say "creating $REPO/.venv with safereq"
  [ -x "$REPO/.venv/bin/python" ] || python3 -m venv "$REPO/.venv"
  "$REPO/.venv/bin/pip" install -q -e "$REPO"
fi

# 3. code-server, installed into a local folder (never `npm install -g`: its nested postinstall breaks there).
CS_DIR="$E2E/code-server-$CS_VERSION"
if [ ! -x "$CS_DIR/node_modules/.bin/code-server" ]; then
  say "installing code-server $CS_VERSION (a few minutes: native modules compile)"
  mkdir -p "$TMPDIR/$RG_CACHE_NAME"
  cp "$(command -v rg)" "$TMPDIR/$RG_CACHE_NAME/rg"
  tar czf "$TMPDIR/$RG_CACHE_NAME/$RG_ARCHIVE" -C "$TMPDIR/$RG_CACHE_NAME" rg
  mkdir -p "$CS_DIR"
  [ -f "$CS_DIR/package.json" ] || echo '{"name":"safereq-e2e-code-server","private":true}' > "$CS_DIR/package.json"
  # npm_config_yes: node-pty's postinstall runs `npx node-gyp` without a TTY.
  # npm_config_nodedir: build against Debian's Node headers instead of downloading them.
  if ! ( cd "$CS_DIR" && npm_config_yes=true npm_config_nodedir=/usr \
      npm install "code-server@$CS_VERSION" --unsafe-perm --foreground-scripts --no-audit --no-fund \
      > "$E2E/code-server-install.log" 2>&1 ); then
    tail -n 40 "$E2E/code-server-install.log"
    rm -rf "$CS_DIR/node_modules"
    say "code-server install failed (log: $E2E/code-server-install.log)"
    exit 1
  fi
fi

# 4. The extension's npm packages (also brings playwright-core for the driver), from the committed lock file.
CLIENT="$REPO/client-vscode"
if [ ! -f "$CLIENT/node_modules/.package-lock.json" ] || [ "$CLIENT/package-lock.json" -nt "$CLIENT/node_modules/.package-lock.json" ]; then
  say "npm ci in client-vscode"
  ( cd "$CLIENT" && npm ci --no-audit --no-fund >/dev/null )
fi

CS_VERSION_LINE=$(XDG_CONFIG_HOME="$E2E/tmp/config" XDG_DATA_HOME="$E2E/tmp/data" \
  "$CS_DIR/node_modules/.bin/code-server" --version 2>/dev/null | tail -n 1)
say "ready: code-server $CS_VERSION_LINE; $(chromium --version 2>/dev/null)"
