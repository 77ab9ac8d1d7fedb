#!/usr/bin/env bash
# Installs Debian's WordPress and what it needs to run under `php -S` with a private MariaDB.
# Non-interactive, for root on Debian bookworm; quick (a dpkg query) when everything is already there.
# Nothing is configured or started here: start.sh runs private copies under a temp dir.
set -euo pipefail

# wordpress-theme-twentytwentythree is a block theme, so the templates routes have something to serve;
# php-gd lets WordPress make image sub-sizes; php-mbstring avoids WordPress's slower fallbacks; php-xml
# and php-curl are what the newer releases (trixie's 6.8, sid's 7.1, run by start.sh on this PHP) expect.
packages=(wordpress wordpress-theme-twentytwentythree php-cli php-mysql php-gd php-mbstring php-xml php-curl mariadb-server)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "wordpress: packages already installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "wordpress: missing packages (${missing[*]}); run this script as root to install them" >&2
  exit 1
fi
echo "wordpress: installing ${missing[*]}"

export DEBIAN_FRONTEND=noninteractive
# The packages' maintainer scripts would start system-wide apache2 and mariadb services; we run our own
# private instances, so forbid service starts for the duration of the install (Debian's policy-rc.d
# mechanism), unless the machine already has a policy of its own (containers usually do).
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  trap 'rm -f "$policy"' EXIT
fi

# Refresh the lists only when they are missing or older than a day: installs then take one apt call.
lists=$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -n 1)
if [ -z "$lists" ]; then
  apt-get update -q
fi
if ! apt-get install -y -q --no-install-recommends "${missing[@]}"; then
  # Stale lists can point at versions the archive no longer has: refresh once and retry.
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
echo "wordpress: packages installed"
