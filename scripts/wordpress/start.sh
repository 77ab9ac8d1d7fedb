#!/usr/bin/env bash
# Starts a private WordPress for the integration tests: a MariaDB on a Unix socket and `php -S` on
# 127.0.0.1, both running from a fresh temp dir, with Debian's WordPress code copied there and a
# wp-config.php of our own (nothing under /etc is read or written). Writes the base URL, the
# administrator's username and an application password to the env file (default .tmp/wordpress/env).
#
# The processes stop with stop.sh, and by themselves (watchdog) when the owner process dies
# (WP_OWNER_PID, default: the caller of this script) or after WP_TTL_MINUTES (default 30).
#
# Which WordPress: WP_SUITE=bookworm (default: Debian's installed package, /usr/share/wordpress),
# trixie or sid (that suite's package, fetched and unpacked by fetch-debian.sh, never installed), or
# WP_TREE=/path/to/a/wordpress/tree. Whatever the version, it runs on this machine's PHP and MariaDB.
# WP_THEME_SLUG picks the theme to activate (default twentytwentythree, a block theme every suite ships).
#
# Environment: WP_SUITE, WP_TREE, WP_THEME_SLUG, WP_ENV_FILE, WP_OWNER_PID, WP_TTL_MINUTES,
# WP_SERVER_WORKERS (php -S workers, default 4).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
env_file=${WP_ENV_FILE:-$repo/.tmp/wordpress/env}
owner=${WP_OWNER_PID:-$PPID}
ttl_minutes=${WP_TTL_MINUTES:-30}
workers=${WP_SERVER_WORKERS:-4}
theme_slug=${WP_THEME_SLUG:-twentytwentythree}

log() { printf 'wordpress: %s\n' "$*" >&2; }

if [ -n "${WP_TREE:-}" ]; then
  wordpress_src=$WP_TREE
  suite=${WP_SUITE:-tree}
else
  suite=${WP_SUITE:-bookworm}
  case "$suite" in
    bookworm) wordpress_src=/usr/share/wordpress ;;
    *) wordpress_src=$(bash "$here/fetch-debian.sh" "$suite") ;;
  esac
fi

for cmd in php mariadbd mariadb-install-db mariadb mariadb-admin; do
  if ! command -v "$cmd" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$cmd" ]; then
    log "$cmd not found: run scripts/wordpress/install.sh first"
    exit 1
  fi
done
[ -f "$wordpress_src/wp-load.php" ] || { log "$wordpress_src is not a WordPress tree (bookworm: run scripts/wordpress/install.sh first)"; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"

# A newer WordPress runs on this machine's PHP: refuse one whose PHP requirement is not met.
php_check=$(php -r '
  include $argv[1] . "/wp-includes/version.php";
  echo version_compare(PHP_VERSION, $required_php_version, ">=") ? "" : "WordPress $wp_version needs PHP $required_php_version, this PHP is " . PHP_VERSION;
' "$wordpress_src")
[ -z "$php_check" ] || { log "$php_check"; exit 1; }

probe() { # probe URL -> prints the HTTP status, or 000
  php -r '
    $ctx = stream_context_create(["http" => ["timeout" => 2, "ignore_errors" => true]]);
    $body = @file_get_contents($argv[1], false, $ctx);
    $line = $http_response_header[0] ?? "";
    echo preg_match("/^HTTP\/\S+ (\d{3})/", $line, $m) ? $m[1] : "000";
  ' "$1"
}

# Already running (from this env file)? Reuse it.
if [ -f "$env_file" ]; then
  running_url=$(sed -n "s/^WP_BASE_URL='\(.*\)'$/\1/p" "$env_file")
  running_tree=$(sed -n "s/^WP_TREE='\(.*\)'$/\1/p" "$env_file")
  if [ -n "$running_url" ] && [ "$running_tree" = "$wordpress_src" ] &&
    [ "$(probe "$running_url/wp-json/")" = 200 ]; then
    log "already running at $running_url ($env_file)"
    exit 0
  fi
  log "stale env file, starting afresh"
  bash "$here/stop.sh" >/dev/null 2>&1 || true
fi

run=$(mktemp -d "${TMPDIR:-/tmp}/afv-wordpress.XXXXXX")
chmod 755 "$run"
started_ok=0
cleanup_on_failure() {
  if [ "$started_ok" -ne 1 ]; then
    log "start failed; logs were in $run (mariadb.log, php.log, install.log):"
    tail -n 20 "$run"/*.log >&2 2>/dev/null || true
    WP_RUN_DIR="$run" bash "$here/stop.sh" --run-dir "$run" >/dev/null 2>&1 || true
  fi
}
trap cleanup_on_failure EXIT

# The watchdog first, so that whatever starts below stops when the owner dies (even by kill -9) or the
# time is up.
deadline=$(($(date +%s) + ttl_minutes * 60))
setsid bash "$here/watchdog.sh" "$run" "$owner" "$deadline" </dev/null >>"$run/watchdog.log" 2>&1 &
echo $! >"$run/watchdog.pid"

# --- MariaDB: private data dir, Unix socket only, no durability (the data is thrown away) ----------
sock="$run/mysqld.sock"
mariadb-install-db --no-defaults --user=root --datadir="$run/db" --auth-root-authentication-method=socket \
  --skip-test-db >"$run/mariadb-install.log" 2>&1
setsid mariadbd --no-defaults --user=root --datadir="$run/db" --socket="$sock" --skip-networking \
  --pid-file="$run/mariadbd.pid" --log-error="$run/mariadb.log" --skip-log-bin \
  --innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0 --innodb-buffer-pool-size=128M \
  --skip-name-resolve </dev/null >/dev/null 2>&1 &
echo $! >"$run/mariadbd.pgid"
for _ in $(seq 1 150); do
  mariadb-admin --no-defaults --socket="$sock" -uroot ping >/dev/null 2>&1 && break
  sleep 0.1
done
mariadb-admin --no-defaults --socket="$sock" -uroot ping >/dev/null

db_password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
mariadb --no-defaults --socket="$sock" -uroot <<SQL
CREATE DATABASE wordpress CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER 'wordpress'@'localhost' IDENTIFIED BY '$db_password';
GRANT ALL PRIVILEGES ON wordpress.* TO 'wordpress'@'localhost';
SQL

# --- WordPress: a copy of Debian's tree with our own wp-config.php ---------------------------------
# Debian's wp-config.php only reads /etc/wordpress/config-<host>.php, and PHP resolves symlinks in
# __FILE__ (so a symlinked tree would still load Debian's config): a plain copy (~60 MB, well under a
# second) keeps every site on this machine untouched.
cp -a "$wordpress_src" "$run/www"
rm -f "$run/www/wp-config.php"
mkdir -p "$run/www/wp-content/mu-plugins"
cp "$here"/mu-plugins/*.php "$run/www/wp-content/mu-plugins/"

# --- php -S on 127.0.0.1 with a few workers (requests are CPU-bound in PHP) ----------------------
# A free port is picked and then bound by php -S; should another process take it in between, php -S
# exits at once and another port is tried. WordPress is configured for the port afterwards (php -S
# reads wp-config.php per request).
port=
for _ in 1 2 3 4 5; do
  candidate=$(php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); echo explode(":", stream_socket_get_name($s, false))[1];')
  PHP_CLI_SERVER_WORKERS=$workers setsid php -d opcache.enable_cli=1 -d opcache.validate_timestamps=0 \
    -d memory_limit=256M -d upload_max_filesize=16M -d post_max_size=32M -d display_errors=0 \
    -d log_errors=1 -d error_log="$run/php-errors.log" \
    -S "127.0.0.1:$candidate" -t "$run/www" "$here/router.php" </dev/null >"$run/php.log" 2>&1 &
  pid=$!
  echo "$pid" >"$run/php.pgid"
  for _ in $(seq 1 50); do
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    if php -r 'exit(@stream_socket_client("tcp://127.0.0.1:" . $argv[1], $e, $m, 1) ? 0 : 1);' "$candidate"; then
      port=$candidate
      break 2
    fi
    sleep 0.1
  done
  kill -TERM -- "-$pid" 2>/dev/null || true
done
[ -n "$port" ] || { log "php -S could not listen on 127.0.0.1"; exit 1; }
base_url="http://127.0.0.1:$port"

salt() { head -c 48 /dev/urandom | base64 | tr -d '\n' | tr "'\\\\" 'xy'; }
{
  echo "<?php"
  echo "// Written by scripts/wordpress/start.sh for a throw-away test site."
  echo "define('DB_NAME', 'wordpress');"
  echo "define('DB_USER', 'wordpress');"
  echo "define('DB_PASSWORD', '$db_password');"
  echo "define('DB_HOST', 'localhost:$sock');"
  echo "define('DB_CHARSET', 'utf8mb4');"
  echo "define('DB_COLLATE', '');"
  for k in AUTH_KEY SECURE_AUTH_KEY LOGGED_IN_KEY NONCE_KEY AUTH_SALT SECURE_AUTH_SALT LOGGED_IN_SALT NONCE_SALT; do
    echo "define('$k', '$(salt)');"
  done
  echo "\$table_prefix = 'wp_';"
  echo "define('WP_HOME', '$base_url');"
  echo "define('WP_SITEURL', '$base_url');"
  echo "// Application passwords over plain http need the 'local' environment type."
  echo "define('WP_ENVIRONMENT_TYPE', 'local');"
  echo "define('WP_CONTENT_DIR', __DIR__ . '/wp-content');"
  echo "define('WP_CONTENT_URL', '$base_url/wp-content');"
  echo "// No network: no update checks, no external HTTP, no loopback cron requests."
  echo "define('AUTOMATIC_UPDATER_DISABLED', true);"
  echo "define('WP_AUTO_UPDATE_CORE', false);"
  echo "define('WP_HTTP_BLOCK_EXTERNAL', true);"
  echo "define('DISABLE_WP_CRON', true);"
  echo "define('FS_METHOD', 'direct');"
  echo "define('WP_DEBUG', false);"
  echo "if (!defined('ABSPATH')) { define('ABSPATH', __DIR__ . '/'); }"
  echo "require_once ABSPATH . 'wp-settings.php';"
} >"$run/www/wp-config.php"

php "$here/install-site.php" "$run/www" "$base_url" "$theme_slug" >"$run/install.json" 2>"$run/install.log"
read_json() { php -r '$j = json_decode(file_get_contents($argv[1]), true); echo $j[$argv[2]] === true ? "1" : ($j[$argv[2]] === false ? "0" : $j[$argv[2]]);' "$run/install.json" "$1"; }
username=$(read_json username)
app_password=$(read_json applicationPassword)

for _ in $(seq 1 100); do
  [ "$(probe "$base_url/wp-json/")" = 200 ] && break
  sleep 0.1
done
status=$(probe "$base_url/wp-json/")
[ "$status" = 200 ] || { log "$base_url/wp-json/ answered $status"; exit 1; }

mkdir -p "$(dirname "$env_file")"
umask 077
cat >"$env_file" <<ENV
WP_BASE_URL='$base_url'
WP_REST_ROOT='wp-json'
WP_USERNAME='$username'
WP_APP_PASSWORD='$app_password'
WP_VERSION='$(read_json version)'
WP_THEME='$(read_json theme)'
WP_BLOCK_THEME='$(read_json blockTheme)'
WP_RUN_DIR='$run'
WP_SUITE='$suite'
WP_TREE='$wordpress_src'
ENV
echo "$env_file" >"$run/env-file"
started_ok=1
log "WordPress $(read_json version) at $base_url (env: $env_file; stops when pid $owner exits or in $ttl_minutes min)"
