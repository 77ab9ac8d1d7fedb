#!/usr/bin/env bash
# Test the package as users get it (npm run test:package; needs a built dist/, CI builds first):
# npm pack → install the tarball into a temporary project → import every entry point of `exports`
# from ESM and, through require(esm), from CommonJS, on every Node in NODES → the import graph of each
# entry (scripts/import-graph.mjs --check) → tsc on a strict consumer, without and with the optional
# peers → links of the packed README → publint and @arethetypeswrong/cli (ESM only is intended) → the
# bin. One line per check; exits non-zero on any failure.
#
# NODES: space-separated node binaries to import the entries with (default: the `node` on PATH);
# .ci/run passes Node 20, 22 and 24.
set -uo pipefail

# ---------------------------------------------------------------------------------------------------
# What each entry point must export (space-separated names). Every subpath in package.json `exports`
# (except ./package.json) must be listed here, so a new entry point cannot slip through unchecked.
declare -A EXPECTED_EXPORTS=(
  ['.']='AffiliationError CHANNELS closeDefaultDispatcher AffiliationClient buildScope parseScope encodeScopeForWire MemoryTransactionStore CookieTransactionStore fragmentRelayHtml ScopeError ProviderError ValidationError TransportError OptionsError LANGUAGES'
  ['./hints']='AffiliationError closeDefaultDispatcher HintFeed HintFeedError parseHintFeed'
  ['./docs-site']='AffiliationError closeDefaultDispatcher DocsSiteClient DocsSiteError LIST_DEFAULTS MAX_BATCH_CONCURRENCY MAX_BATCH_ITEMS'
  ['./testing']='AffiliationError TestProvider'
  ['./testing/msw']='createTestProviderHandlers'
  ['./redis']='AffiliationError RedisTransactionStore RedisOfferLedger StoreError'
  ['./picker']='pickerModuleHandler pickerScript'
  ['./otel']='instrument CHANNELS ATTR INSTRUMENTATION_NAME'
)
# Entry points that import an optional peer when imported: checked only once the peers are installed
# (without them, Node's "Cannot find package '@opentelemetry/api'" says what to install).
declare -A IMPORTS_PEERS=(
  ['./otel']='@opentelemetry/api'
)
# Entry points whose types name an optional peer: compiled by tsc only once the peers are installed.
declare -A NEEDS_PEERS=(
  ['./testing/msw']='msw'
  ['./otel']='@opentelemetry/api'
)
BIN_NAME='affiliation-validation'
# ---------------------------------------------------------------------------------------------------

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false npm_config_loglevel=error

FAILURES=0
pass() { printf 'ok    %s\n' "$*"; }
fail() {
  printf 'FAIL  %s\n' "$*"
  FAILURES=$((FAILURES + 1))
}
indent() { sed 's/^/      | /'; }

read -r -a NODE_BINS <<<"${NODES:-$(command -v node)}"

if [[ ! -f dist/index.js ]]; then
  fail "dist/ is not built: run \"npm run build\" first"
  exit 1
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/affiliation-validation-pkg.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
PACK_DIR="$WORK/pack"
APP="$WORK/app"
mkdir -p "$PACK_DIR" "$APP"

# --- npm pack ---------------------------------------------------------------------------------------
if ! PACK_JSON="$(npm pack --json --pack-destination "$PACK_DIR" 2>"$WORK/pack.err")"; then
  fail "npm pack"
  indent <"$WORK/pack.err"
  exit 1
fi
TARBALL="$PACK_DIR/$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8"))[0].filename)' <<<"$PACK_JSON")"
pass "npm pack → $(basename "$TARBALL") ($(du -k "$TARBALL" | cut -f1) kB)"

# Only what `files` allows, and nothing from the working tree that must not ship.
LEAKED="$(tar -tzf "$TARBALL" | grep -E '^package/(src|test|bench|scripts|examples|node_modules|\.tmp|\.ci|coverage)/|\.env' || true)"
if [[ -n "$LEAKED" ]]; then
  fail "tarball contents: files that must not ship"
  indent <<<"$LEAKED"
else
  pass "tarball contents: no sources, tests, scripts or local files"
fi

# --- install into a temporary project -------------------------------------------------------------
ENTRIES="$(node -e '
  const pkg = require("./package.json");
  const keys = Object.keys(pkg.exports ?? {}).filter((k) => k !== "./package.json");
  process.stdout.write(keys.join("\n"));
')"
PKG_NAME="$(node -p 'require("./package.json").name')"
# Optional peers (msw for ./testing): every check runs without them, as most users install us; the
# entry points are imported once more with them at the end.
PEERS="$(node -e '
  const pkg = require("./package.json");
  const peers = Object.entries(pkg.peerDependencies ?? {}).map(([n, v]) => `${n}@${v}`);
  process.stdout.write(peers.join(" "));
')"
printf '{ "name": "pkg-check", "version": "0.0.0", "private": true }\n' >"$APP/package.json"
if (cd "$APP" && npm install --no-package-lock --prefer-offline "$TARBALL" >"$WORK/install.log" 2>&1); then
  pass "install the tarball into a temporary project (runtime dependencies only)"
else
  fail "install the tarball into a temporary project"
  indent <"$WORK/install.log"
  exit 1
fi

# --- every entry point from ESM and from CJS ------------------------------------------------------
cat >"$APP/check.mjs" <<'EOF'
const [spec, names] = process.argv.slice(2);
const mod = await import(spec);
const missing = names.split(' ').filter((n) => n && !(n in mod));
if (missing.length) { console.error(`missing exports: ${missing.join(', ')}`); process.exit(1); }
EOF
cat >"$APP/check.cjs" <<'EOF'
const [spec, names] = process.argv.slice(2);
const mod = require(spec);
const missing = names.split(' ').filter((n) => n && !(n in mod));
if (missing.length) { console.error(`missing exports: ${missing.join(', ')}`); process.exit(1); }
EOF

check_entries() {
  local context="$1" entry spec names kind label out nodebin version
  while IFS= read -r entry; do
    [[ -z "$entry" ]] && continue
    spec="$PKG_NAME${entry#.}"
    if [[ -z "${EXPECTED_EXPORTS[$entry]+set}" ]]; then
      fail "$spec: listed in exports but not in EXPECTED_EXPORTS of scripts/check-package.sh"
      continue
    fi
    names="${EXPECTED_EXPORTS[$entry]}"
    if [[ "$context" == 'without optional peers' && -n "${IMPORTS_PEERS[$entry]+set}" ]]; then
      continue
    fi
    for nodebin in "${NODE_BINS[@]}"; do
      version="$("$nodebin" --version)"
      for kind in mjs cjs; do
        label="$([[ $kind == mjs ]] && echo 'ESM import' || echo 'CJS require')"
        # The CJS check fails on any warning too (an ExperimentalWarning for require(esm) would reach
        # every CommonJS user's console).
        if out="$(cd "$APP" && "$nodebin" "check.$kind" "$spec" "$names" 2>&1)" && [[ -z "$out" ]]; then
          pass "$label \"$spec\" on Node $version ($context)"
        else
          fail "$label \"$spec\" on Node $version ($context)"
          indent <<<"$out"
        fi
      done
    done
  done <<<"$ENTRIES"
}

check_entries 'without optional peers'
INSTALLED="$APP/node_modules/$PKG_NAME"

for entry in "${!EXPECTED_EXPORTS[@]}"; do
  if ! grep -qxF -- "$entry" <<<"$ENTRIES"; then
    fail "EXPECTED_EXPORTS lists \"$entry\" but package.json exports does not"
  fi
done


# The CLI shares the library's chunks: each class of the library is defined in one file of dist/
# (the CLI once bundled a second copy of the library, 174 KB).
if out="$(cd "$INSTALLED" && node -e '
  const fs = require("fs");
  const files = fs.readdirSync("dist").filter((f) => f.endsWith(".js"));
  const sources = files.map((f) => [f, fs.readFileSync("dist/" + f, "utf8")]);
  const problems = [];
  for (const name of ["AffiliationClient", "AffiliationError", "HintFeed", "DocsSiteClient", "HttpClient"]) {
    const re = new RegExp(`\\b${name} = class\\b|\\bclass ${name}\\b`);
    const where = sources.filter(([, code]) => re.test(code)).map(([f]) => f);
    if (where.length !== 1) problems.push(`${name} is defined in ${where.length} files: ${where.join(", ")}`);
  }
  if (!/^#!\/usr\/bin\/env node\n/.test(fs.readFileSync("dist/cli.js", "utf8"))) problems.push("dist/cli.js has no #! line");
  if (problems.length) { console.error(problems.join("\n")); process.exit(1); }
' 2>&1)"; then
  pass "bin shares the library's chunks: every class is defined once in dist/"
else
  fail "a class of the library is defined more than once in dist/ (the bin bundles its own copy?)"
  indent <<<"$out"
fi

# --- the types, as a strict TypeScript user compiles them ----------------------------------------
# Every entry point imported by a project with strict, exactOptionalPropertyTypes and skipLibCheck
# false (so the .d.ts files themselves are checked): run without the optional peers (msw) first and
# again with them at the end.
TSC="$ROOT/node_modules/.bin/tsc"
TYPES_NODE="@types/node@$(node -p 'require("./node_modules/@types/node/package.json").version')"
if ! (cd "$APP" && npm install --no-package-lock --prefer-offline --no-save "$TYPES_NODE" >>"$WORK/install.log" 2>&1); then
  fail "install $TYPES_NODE for the TypeScript check"
fi
cat >"$APP/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "exactOptionalPropertyTypes": true,
    "noUncheckedIndexedAccess": true,
    "skipLibCheck": false,
    "noEmit": true,
    "types": ["node"]
  },
  "files": ["consumer.mts"]
}
EOF
# One consumer file per run: the entries that need no optional peer, then all of them.
write_consumer() {
  local with_peers="$1" i=0 entry
  while IFS= read -r entry; do
    [[ -z "$entry" ]] && continue
    [[ "$with_peers" == no && -n "${NEEDS_PEERS[$entry]+set}" ]] && continue
    printf 'import * as e%d from %s;\nexport const n%d: number = Object.keys(e%d).length;\n' \
      "$i" "'$PKG_NAME${entry#.}'" "$i" "$i"
    i=$((i + 1))
  done <<<"$ENTRIES" >"$APP/consumer.mts"
}
check_types() {
  local context="$1" out
  write_consumer "$2"
  if out="$(cd "$APP" && "$TSC" -p tsconfig.json 2>&1)"; then
    pass "tsc (strict, exactOptionalPropertyTypes, skipLibCheck false) on every entry point ($context)"
  else
    fail "tsc on the entry points ($context)"
    indent <<<"$out"
  fi
}
check_types 'without optional peers' no

# --- links of the packed README and guides ----------------------------------------------------------
if out="$(node scripts/check-links.mjs "$INSTALLED" 2>&1)"; then
  pass "links: $out (packed README.md and docs/)"
else
  fail "links of the packed README.md and docs/"
  indent <<<"$out"
fi

# --- publint and @arethetypeswrong/cli on the tarball ---------------------------------------------
if out="$(npx --no-install publint run "$TARBALL" --strict 2>&1)"; then
  pass "publint (strict)"
else
  fail "publint (strict)"
fi
indent <<<"$out" | grep -v 'Unknown user config' || true

if out="$(npx --no-install attw "$TARBALL" --profile esm-only --format ascii --no-emoji --no-color 2>&1)"; then
  pass "@arethetypeswrong/cli (--profile esm-only: CommonJS callers require() the ES module)"
else
  fail "@arethetypeswrong/cli"
  indent <<<"$out" | grep -v 'Unknown user config'
fi

# --- the bin ----------------------------------------------------------------------------------------
BIN="$APP/node_modules/.bin/$BIN_NAME"
if [[ ! -x "$BIN" ]]; then
  fail "bin $BIN_NAME is not installed as an executable"
elif out="$(cd "$APP" && "$BIN" --help 2>&1)" && grep -q 'Usage' <<<"$out"; then
  pass "bin: $BIN_NAME --help"
else
  fail "bin: $BIN_NAME --help"
  indent <<<"$out"
fi
PKG_VERSION="$(node -p 'require("./package.json").version')"
if out="$(cd "$APP" && "$BIN" --version 2>&1)" && [[ "$out" == "$PKG_VERSION" ]]; then
  pass "bin: $BIN_NAME --version prints $PKG_VERSION"
else
  fail "bin: $BIN_NAME --version (expected $PKG_VERSION)"
  indent <<<"$out"
fi

# --- the entry points again, with the optional peers installed (last: all else ran without them) ----
# shellcheck disable=SC2086
if (cd "$APP" && npm install --no-package-lock --prefer-offline $PEERS >>"$WORK/install.log" 2>&1); then
  check_entries "with $PEERS"
  check_types "with $PEERS" yes
else
  fail "install the optional peers $PEERS"
  indent <"$WORK/install.log"
fi

# --- the import graph of each entry, as installed -----------------------------------------------
# What Node really loads when each entry is imported (a loader hook records it); the rules (docs-site
# never loads openid-client, the core never a Redis client or @opentelemetry/api, nothing loads msw
# up front) are in scripts/import-graph.mjs. Run with the optional peers installed, so that "never
# loads" is a real check (without them nothing could load them).
if out="$(node scripts/import-graph.mjs --dist "$INSTALLED" --check 2>&1)"; then
  pass "import graph of every entry point follows the rules of scripts/import-graph.mjs"
else
  fail "import graph of the entry points"
fi
indent <<<"$out"

echo
if ((FAILURES > 0)); then
  echo "package checks: $FAILURES failed"
  exit 1
fi
echo "package checks: all passed"
