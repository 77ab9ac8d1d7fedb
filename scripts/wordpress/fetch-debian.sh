#!/usr/bin/env bash
# Fetches Debian's WordPress of another suite (trixie: 6.8.x, sid: 7.1.x) without installing anything
# into the system: `apt-get download` under a private apt configuration (own sources list naming the
# Debian mirror this machine's apt already uses, own lists, cache and status), `dpkg-deb -x` into
# .tmp/wordpress/debian/SUITE/root, and a self-contained copy of the tree in .../tree. Prints the
# tree's path on stdout (start.sh takes it as WP_TREE).
#
# Besides `wordpress`, the packages whose files Debian links into the tree are fetched: the ones named
# in wordpress's Depends that hold code or scripts (php-getid3, libphp-phpmailer, libjs-*), and the
# block themes (wordpress-theme-twentytwentythree, the one the suite activates on every version, and
# wordpress-theme-twentytwentyfive, the one Debian recommends). Every relative symlink of the tree is
# then followed: one that leads nowhere inside the unpacked packages stops the script, naming it.
#
# Usage: fetch-debian.sh SUITE. Reuses the tree while the suite's candidate version is unchanged (the
# lists are refreshed at most once a day; an unreachable archive with a tree at hand reuses it).
set -euo pipefail

suite=${1:-}
case "$suite" in
  trixie | sid | forky | testing | unstable) ;;
  *)
    echo "usage: fetch-debian.sh SUITE (trixie or sid; bookworm's WordPress is installed by install.sh)" >&2
    exit 2
    ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=$repo/.tmp/wordpress/debian/$suite
apt=$cache/apt
log() { printf 'wordpress (%s): %s\n' "$suite" "$*" >&2; }

# The Debian mirror of this machine's own apt sources (deb822 or one-line form), else deb.debian.org.
mirror() {
  local uri
  uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk 'BEGIN{RS=""} /Suites:[^\n]*bookworm( |$|\n)/ && !/security/ {
      if (match($0, /URIs:[ \t]*[^ \t\n]+/)) { s = substr($0, RSTART, RLENGTH); sub(/URIs:[ \t]*/, "", s); print s; exit } }')
  if [ -z "$uri" ]; then
    uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk '$1 == "deb" && $0 ~ / bookworm / && $0 !~ /security/ {
        for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { print $i; exit } }')
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

mkdir -p "$cache"
# One fetch per suite at a time (two test runs may start together); the second reuses the first's tree.
exec 9>"$cache/.lock"
flock 9

mkdir -p "$apt/etc/apt.conf.d" "$apt/etc/preferences.d" "$apt/etc/sources.list.d" \
  "$apt/state/lists/partial" "$apt/cache/archives/partial"
[ -f "$apt/status" ] || : >"$apt/status"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
echo "deb [signed-by=$keyring] $(mirror) $suite main" >"$apt/etc/sources.list"
opts=(
  -o "Dir::Etc=$apt/etc" -o "Dir::Etc::sourcelist=$apt/etc/sources.list"
  -o "Dir::Etc::sourceparts=$apt/etc/sources.list.d" -o "Dir::Etc::preferencesparts=$apt/etc/preferences.d"
  -o "Dir::State=$apt/state" -o "Dir::State::status=$apt/status" -o "Dir::Cache=$apt/cache"
  -o Acquire::Languages=none -o Debug::NoLocking=1 -o APT::Sandbox::User=root
)

tree=$cache/tree
stamp=$cache/version
fresh_lists=$(find "$apt/state/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -n 1)
if [ -z "$fresh_lists" ]; then
  if ! apt-get -q "${opts[@]}" update >"$cache/update.log" 2>&1; then
    if [ -f "$tree/wp-load.php" ] && [ -f "$stamp" ]; then
      log "the archive did not answer (see $cache/update.log); reusing WordPress $(cat "$stamp")"
      echo "$tree"
      exit 0
    fi
    cat "$cache/update.log" >&2
    log "apt-get update failed"
    exit 1
  fi
fi

field() { # field PACKAGE FIELD -> the candidate's value
  apt-cache "${opts[@]}" show --no-all-versions "$1" 2>/dev/null | sed -n "s/^$2: //p" | head -n 1
}
version=$(field wordpress Version)
[ -n "$version" ] || { log "no wordpress package in $suite"; exit 1; }
if [ -f "$tree/wp-load.php" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$version" ]; then
  echo "$tree"
  exit 0
fi

# Depends of wordpress that bring files into its tree (web server, PHP and database are bookworm's).
linked=$(field wordpress Depends | tr ',|' '\n\n' | sed 's/(.*//; s/ //g' |
  grep -E '^(libjs-|libphp-|php-getid3$)' | sort -u)
packages=(wordpress wordpress-theme-twentytwentythree wordpress-theme-twentytwentyfive $linked)
log "fetching WordPress $version: ${packages[*]}"

rm -rf "$cache/debs" "$cache/root" "$tree" "$stamp"
mkdir -p "$cache/debs" "$cache/root"
(cd "$cache/debs" && apt-get -q "${opts[@]}" download "${packages[@]}" >"$cache/download.log" 2>&1) || {
  cat "$cache/download.log" >&2
  log "apt-get download failed"
  exit 1
}
for deb in "$cache"/debs/*.deb; do dpkg-deb -x "$deb" "$cache/root"; done

src=$cache/root/usr/share/wordpress
[ -f "$src/wp-load.php" ] || { log "the wordpress package has no /usr/share/wordpress/wp-load.php"; exit 1; }

# A relative link that leads outside the unpacked packages means a package is missing from the list.
missing=$(cd "$src" && find . -type l -lname '[!/]*' -xtype l -printf '%p -> %l\n')
if [ -n "$missing" ]; then
  log "links into packages that were not fetched (add their package):"
  echo "$missing" >&2
  exit 1
fi

# The copy start.sh uses: relative links replaced by the files they lead to (the tree is copied
# elsewhere per run); absolute links (/etc/ssl/certs, /etc/wordpress/htaccess) kept as Debian ships
# them, as in bookworm's installed tree.
cp -a "$src" "$tree.partial"
(cd "$src" && find . -type l -lname '[!/]*' -print0) | while IFS= read -r -d '' link; do
  rm "$tree.partial/$link"
  cp -rL "$src/$link" "$tree.partial/$link"
done
mv "$tree.partial" "$tree"
rm -rf "$cache/debs" "$cache/root"
echo "$version" >"$stamp"
log "WordPress $version in $tree"
echo "$tree"
