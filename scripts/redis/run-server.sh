#!/usr/bin/env bash
# Runs Debian's redis-server for tests and stops it by itself.
#
#   scripts/redis/run-server.sh <port> <dir> [watched-pid] [redis-server options…]
#
# Listens on 127.0.0.1:<port> only, keeps nothing on disk (no RDB snapshots, no AOF), works in <dir>
# (logs to <dir>/redis.log). Stops the server on SIGTERM/SIGINT, and as soon as <watched-pid> (default:
# this script's parent, e.g. the test process) is gone, so a crashed test run leaves no server behind.
# Further arguments go to redis-server (scripts/redis/run-cluster.sh passes the cluster options).
set -u
port=${1:?usage: run-server.sh <port> <dir> [watched-pid] [redis-server options…]}
dir=${2:?usage: run-server.sh <port> <dir> [watched-pid] [redis-server options…]}
watched=${3:-$PPID}
shift $(($# < 3 ? $# : 3))
server_bin=${REDIS_SERVER:-redis-server}

"$server_bin" --bind 127.0.0.1 --port "$port" --protected-mode yes --save '' --appendonly no \
  --dir "$dir" --logfile "$dir/redis.log" --daemonize no "$@" &
server=$!

stop() {
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null
  exit 0
}
trap stop TERM INT HUP

while kill -0 "$server" 2>/dev/null; do
  kill -0 "$watched" 2>/dev/null || stop
  # `sleep & wait` so a signal is handled at once instead of after the sleep.
  sleep 0.5 &
  wait $!
done
wait "$server"
