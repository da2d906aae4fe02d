#!/usr/bin/env bash
# Install the MCP Inspector's CLI from npm under .cache/mcp-inspector (idempotent), for tests/mcp_server.
# scripts/test.sh runs it; tests/mcp_server/test_inspector.py runs it too when npm is there and the tool is not.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=.cache/mcp-inspector
VERSION=2.12.0
if [ ! -x "$DIR/node_modules/.bin/mcp-inspector" ]; then
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/inspector@$VERSION"
fi
