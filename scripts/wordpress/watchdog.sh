#!/usr/bin/env bash
# Started by start.sh: stops the private WordPress when its owner process has gone (a test run that
# was killed before its trap ran) or when the deadline has passed, so nothing outlives its use.
# Usage: watchdog.sh RUN_DIR OWNER_PID DEADLINE_EPOCH_SECONDS
set -u
run=$1 owner=$2 deadline=$3
here=$(cd "$(dirname "$0")" && pwd)
while [ -d "$run" ]; do
  if ! kill -0 "$owner" 2>/dev/null; then
    echo "watchdog: owner $owner has exited"
    break
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "watchdog: deadline reached"
    break
  fi
  sleep 2
done
[ -d "$run" ] && WP_WATCHDOG_PID=$$ bash "$here/stop.sh" --run-dir "$run"
exit 0
