#!/usr/bin/env bash
# Stops the WordPress started by start.sh and removes its temp dir. Idempotent.
# Usage: stop.sh [--run-dir DIR]  (default: the run dir named in the env file)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
env_file=${WP_ENV_FILE:-$repo/.tmp/wordpress/env}

run=
if [ "${1:-}" = "--run-dir" ]; then
  run=${2:-}
elif [ -f "$env_file" ]; then
  run=$(sed -n "s/^WP_RUN_DIR='\(.*\)'$/\1/p" "$env_file")
fi
# Only ever act on a dir that start.sh made.
case "$run" in
  */afv-wordpress.*) ;;
  *) [ -f "$env_file" ] && rm -f "$env_file"; exit 0 ;;
esac
[ -d "$run" ] || { rm -f "$env_file"; exit 0; }

# One stopper at a time (the test run's trap and the watchdog may both try).
if ! mkdir "$run/.stopping" 2>/dev/null; then
  for _ in $(seq 1 200); do
    [ -d "$run" ] || exit 0
    sleep 0.1
  done
  exit 0
fi

# The watchdog first (unless it is the one calling us), so that nothing races this stop.
if [ -f "$run/watchdog.pid" ]; then
  wd=$(cat "$run/watchdog.pid")
  if [ -n "$wd" ] && [ "$wd" != "${WP_WATCHDOG_PID:-}" ]; then
    kill -TERM "$wd" 2>/dev/null || true
  fi
fi

# Each server was started with setsid, so its pid is also its process group: the group holds the
# php -S workers too.
stop_group() { # stop_group PIDFILE
  local pg
  pg=$(cat "$1" 2>/dev/null) || return 0
  [ -n "$pg" ] || return 0
  kill -TERM -- "-$pg" 2>/dev/null || return 0
  for _ in $(seq 1 100); do
    kill -0 -- "-$pg" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL -- "-$pg" 2>/dev/null || true
}
stop_group "$run/php.pgid"
stop_group "$run/mariadbd.pgid"

# The env file only if it still describes this run.
own_env=$(cat "$run/env-file" 2>/dev/null || echo "$env_file")
if [ -f "$own_env" ] && grep -q "^WP_RUN_DIR='$run'$" "$own_env"; then
  rm -f "$own_env"
fi
rm -rf "$run"
echo "wordpress: stopped" >&2
