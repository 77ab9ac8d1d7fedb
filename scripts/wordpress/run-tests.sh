#!/usr/bin/env bash
# `npm run test:wordpress`: installs Debian's WordPress if needed, starts a private instance on
# 127.0.0.1, runs the integration suite against it and always stops it again. Extra arguments go to
# vitest (e.g. a file filter). Exits non-zero when anything fails.
#
# WP_SUITE picks the WordPress: bookworm (default, 6.1.x, installed by install.sh), trixie (6.8.x) or
# sid (7.1.x), fetched by fetch-debian.sh and never installed; e.g. `WP_SUITE=sid npm run test:wordpress`.
# WP_SUITE=all runs the suite once per version and fails when any run fails.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"

export WP_SUITE=${WP_SUITE:-bookworm}
if [ "$WP_SUITE" = all ]; then
  failed=()
  for suite in bookworm trixie sid; do
    WP_SUITE=$suite bash "$0" "$@" || failed+=("$suite")
  done
  if [ "${#failed[@]}" -gt 0 ]; then
    echo "wordpress: the suite failed on ${failed[*]}" >&2
    exit 1
  fi
  exit 0
fi

# A dedicated env file per suite: a WordPress a developer started by hand (.tmp/wordpress/env) is left
# alone, and runs against two versions may overlap.
export WP_ENV_FILE="$repo/.tmp/wordpress/test-run-$WP_SUITE.env"

# PHP, MariaDB (and bookworm's WordPress) from the system; the other suites' WordPress from their own
# packages, fetched by start.sh.
bash "$here/install.sh"

stopped=0
stop() {
  if [ "$stopped" -eq 0 ]; then
    stopped=1
    bash "$here/stop.sh" || true
  fi
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The watchdog stops the servers if this shell dies without running its trap (kill -9).
WP_OWNER_PID=$$ bash "$here/start.sh"

set -a
# shellcheck disable=SC1090
. "$WP_ENV_FILE"
set +a

npx vitest run --config vitest.wordpress.config.ts "$@"
