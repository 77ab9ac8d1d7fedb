#!/usr/bin/env bash
# A Redis Cluster of Debian's redis-server for tests, on 127.0.0.1, that stops by itself.
#
#   scripts/redis/run-cluster.sh create <dir> <watched-pid> <port>:<bus-port>…   (6 nodes or more)
#   scripts/redis/run-cluster.sh node   <dir> <watched-pid> <port>:<bus-port>     (restart one node)
#
# `create` starts one node per <port>:<bus-port> through run-server.sh (bound to 127.0.0.1, nothing
# persisted but the node's cluster config, stopped as soon as <watched-pid> is gone), makes them a
# cluster of masters with one replica each (`redis-cli --cluster create … --cluster-replicas 1`),
# waits until every node reports `cluster_state:ok` and exits; the nodes keep running. `node` starts
# one node again in its old directory, so it rejoins the cluster (as a replica, if its slots moved).
# cluster-node-timeout is small (CLUSTER_NODE_TIMEOUT_MS, default 1000): a failover takes seconds;
# a node that comes back is sent its master's data at once (repl-diskless-sync-delay 0, not 5 s), so
# its master's writes are confirmed by a replica again (WAIT) soon after.
set -eu
mode=${1:?usage: run-cluster.sh create|node <dir> <watched-pid> <port>:<bus-port>…}
dir=${2:?missing <dir>}
watched=${3:?missing <watched-pid>}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
cli=${REDIS_CLI:-redis-cli}
node_timeout=${CLUSTER_NODE_TIMEOUT_MS:-1000}

start_node() { # <port> <bus-port>
  mkdir -p "$dir/$1"
  # setsid: the node outlives this script; run-server.sh stops it when <watched-pid> dies.
  setsid bash "$here/run-server.sh" "$1" "$dir/$1" "$watched" \
    --cluster-enabled yes --cluster-port "$2" --cluster-config-file nodes.conf \
    --cluster-node-timeout "$node_timeout" --cluster-replica-validity-factor 0 \
    --repl-diskless-sync-delay 0 \
    </dev/null >/dev/null 2>&1 &
  for _ in $(seq 100); do
    [ "$("$cli" -h 127.0.0.1 -p "$1" ping 2>/dev/null)" = PONG ] && return 0
    sleep 0.1
  done
  echo "redis-server on 127.0.0.1:$1 did not start; see $dir/$1/redis.log" >&2
  exit 1
}

wait_ok() { # <port>…
  for port in "$@"; do
    for i in $(seq 200); do
      "$cli" -h 127.0.0.1 -p "$port" cluster info 2>/dev/null | grep -q '^cluster_state:ok' && break
      if [ "$i" = 200 ]; then echo "cluster node 127.0.0.1:$port is not ok after 20 s" >&2; exit 1; fi
      sleep 0.1
    done
  done
}

case "$mode" in
  create)
    [ $# -ge 6 ] || { echo 'create needs at least 6 <port>:<bus-port> (3 masters, 3 replicas)' >&2; exit 2; }
    addresses=()
    ports=()
    for pair in "$@"; do
      start_node "${pair%%:*}" "${pair##*:}"
      addresses+=("127.0.0.1:${pair%%:*}")
      ports+=("${pair%%:*}")
    done
    "$cli" --cluster create "${addresses[@]}" --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1 \
      || { cat "$dir/create.log" >&2; exit 1; }
    wait_ok "${ports[@]}"
    ;;
  node)
    start_node "${1%%:*}" "${1##*:}"
    ;;
  *)
    echo "unknown mode $mode (create or node)" >&2
    exit 2
    ;;
esac
