#!/usr/bin/env bash
# `npm run test:wordpress`: installs Debian's WordPress if needed, starts a private instance on
# 127.0.0.1, runs the integration suite against it and always stops it again. Extra arguments go to
# vitest (e.g. a file filter). Exits non-zero when anything fails.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"

# A dedicated env file: a WordPress a developer started by hand (.tmp/wordpress/env) is left alone.
export WP_ENV_FILE="$repo/.tmp/wordpress/test-run.env"

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
