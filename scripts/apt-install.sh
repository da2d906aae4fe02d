#!/usr/bin/env bash
# Install Debian packages for the tests, waiting for another apt or dpkg (an unattended upgrade, a second setup
# running at the same time) to finish instead of failing at once (issue 25, item 15).
#   bash scripts/apt-install.sh PACKAGE...
# SAFEREQ_APT_LOCK_WAIT: how long to wait for the locks, in seconds (default 600).
set -euo pipefail
[ $# -gt 0 ] || exit 0
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
WAIT=${SAFEREQ_APT_LOCK_WAIT:-600}

# apt-get waits for the dpkg lock itself (DPkg::Lock::Timeout); the package lists' lock of `apt-get update`
# has no such option, so a run that failed on a held lock is tried again until WAIT has passed.
apt_get() {
  local deadline=$((SECONDS + WAIT)) log
  log=$(mktemp)
  while true; do
    if DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout="$WAIT" "$@" >"$log" 2>&1; then
      rm -f "$log"; return 0
    fi
    if grep -qiE 'could not get lock|unable to (acquire|lock)|is another process using it' "$log" \
        && [ "$SECONDS" -lt "$deadline" ]; then
      echo "apt-get $1: another process holds apt's lock; waiting for it" >&2
      sleep 5
      continue
    fi
    cat "$log" >&2; rm -f "$log"; return 1
  done
}

apt_get update -qq
apt_get install -y -qq "$@"
