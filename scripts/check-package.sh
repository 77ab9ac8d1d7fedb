#!/usr/bin/env bash
# Test the package as users get it (npm run test:package; needs a built dist/, CI builds first):
# npm pack → install the tarball into a temporary project → import every entry point of `exports`
# from ESM and CJS → check entry points do not load what they must not → publint and
# @arethetypeswrong/cli on the tarball → run the bin. One line per check; exits non-zero on any failure.
set -uo pipefail

# ---------------------------------------------------------------------------------------------------
# What each entry point must export (space-separated names). Every subpath in package.json `exports`
# (except ./package.json) must be listed here, so a new entry point cannot slip through unchecked.
declare -A EXPECTED_EXPORTS=(
  ['.']='AffiliationError AffiliationClient buildScope parseScope encodeScopeForWire MemoryTransactionStore CookieTransactionStore fragmentRelayHtml ScopeError ProviderError ValidationError TransportError OptionsError MemoryOfferLedger OfferLedgerError'
  ['./hints']='AffiliationError HintFeed HintFeedError parseHintFeed'
  ['./docs-site']='AffiliationError DocsSiteClient DocsSiteError LIST_DEFAULTS MAX_BATCH_CONCURRENCY MAX_BATCH_ITEMS'
  ['./testing']='AffiliationError startTestProvider createTestProvider createTestProviderHandlers'
  ['./redis']='AffiliationError RedisTransactionStore RedisOfferLedger StoreError'
)
# Packages an entry point must never load, directly or through its chunks (space-separated).
declare -A MUST_NOT_LOAD=(
  ['./docs-site']='openid-client'
  ['./hints']='openid-client'
  ['.']='redis ioredis @redis/client'
  ['./redis']='redis ioredis @redis/client'
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

if [[ ! -f dist/index.js || ! -f dist/index.cjs ]]; then
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
  local context="$1" entry spec names kind label out
  while IFS= read -r entry; do
    [[ -z "$entry" ]] && continue
    spec="$PKG_NAME${entry#.}"
    if [[ -z "${EXPECTED_EXPORTS[$entry]+set}" ]]; then
      fail "$spec: listed in exports but not in EXPECTED_EXPORTS of scripts/check-package.sh"
      continue
    fi
    names="${EXPECTED_EXPORTS[$entry]}"
    for kind in mjs cjs; do
      label="$([[ $kind == mjs ]] && echo ESM || echo CJS)"
      if out="$(cd "$APP" && node "check.$kind" "$spec" "$names" 2>&1)"; then
        pass "$label import \"$spec\" exports $names ($context)"
      else
        fail "$label import \"$spec\" ($context)"
        indent <<<"$out"
      fi
    done
  done <<<"$ENTRIES"
}

check_entries 'without optional peers'

for entry in "${!EXPECTED_EXPORTS[@]}"; do
  if ! grep -qxF -- "$entry" <<<"$ENTRIES"; then
    fail "EXPECTED_EXPORTS lists \"$entry\" but package.json exports does not"
  fi
done

# --- errors are recognised across the ESM and the CJS build (dual-package hazard) ------------------
cat >"$APP/dual.mjs" <<'EOF'
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const esm = await import('affiliation-validation');
const cjs = require('affiliation-validation');
const docsEsm = await import('affiliation-validation/docs-site');
const problems = [];
if (esm.ValidationError === cjs.ValidationError) problems.push('the two builds share their classes: nothing was tested');
const fromCjs = new cjs.ValidationError('nonce_mismatch', 'x');
if (!(fromCjs instanceof esm.ValidationError)) problems.push('a CJS ValidationError is not an ESM ValidationError');
if (!(fromCjs instanceof docsEsm.AffiliationError)) problems.push('a CJS ValidationError is not an ESM AffiliationError');
if (fromCjs instanceof esm.ProviderError) problems.push('a CJS ValidationError passes for an ESM ProviderError');
if (!(new esm.OptionsError('x') instanceof cjs.OptionsError)) problems.push('an ESM OptionsError is not a CJS OptionsError');
if (problems.length) { console.error(problems.join('\n')); process.exit(1); }
EOF
if out="$(cd "$APP" && node dual.mjs 2>&1)"; then
  pass "errors of the CJS build are instanceof the ESM classes and back (dual-package hazard)"
else
  fail "errors across the ESM and CJS builds"
  indent <<<"$out"
fi

# --- entry points that must not load certain packages ---------------------------------------------
# ESM: a resolve hook (module.register) that refuses the forbidden packages; CJS: the same on
# Module._resolveFilename. Both see chunks and lazy imports alike, since they watch the loader.
cat >"$APP/forbid-hooks.mjs" <<'EOF'
const forbidden = (process.env.FORBIDDEN ?? '').split(' ').filter(Boolean);
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  for (const name of forbidden) {
    if (result.url.includes(`/node_modules/${name}/`)) {
      throw new Error(`loaded forbidden package ${name} (${specifier} from ${context.parentURL})`);
    }
  }
  return result;
}
EOF
cat >"$APP/forbid.mjs" <<'EOF'
import { register } from 'node:module';
register('./forbid-hooks.mjs', import.meta.url);
const [spec] = process.argv.slice(2);
await import(spec);
EOF
cat >"$APP/forbid.cjs" <<'EOF'
const Module = require('node:module');
const forbidden = (process.env.FORBIDDEN ?? '').split(' ').filter(Boolean);
const original = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const file = original.call(this, request, parent, ...rest);
  for (const name of forbidden) {
    if (file.includes(`/node_modules/${name}/`)) {
      throw new Error(`loaded forbidden package ${name} (${request} from ${parent?.filename})`);
    }
  }
  return file;
};
require(process.argv[2]);
EOF

# Self-test: the detectors must catch a direct import, or a pass below would mean nothing.
if (cd "$APP" && FORBIDDEN=undici node forbid.mjs undici >/dev/null 2>&1) ||
  (cd "$APP" && FORBIDDEN=undici node forbid.cjs undici >/dev/null 2>&1); then
  fail "self-test: the load detectors did not notice a forbidden package"
else
  pass "self-test: the load detectors notice a forbidden package (ESM and CJS)"
fi

for entry in "${!MUST_NOT_LOAD[@]}"; do
  spec="$PKG_NAME${entry#.}"
  forbidden="${MUST_NOT_LOAD[$entry]}"
  for kind in mjs cjs; do
    label="$([[ $kind == mjs ]] && echo ESM || echo CJS)"
    if out="$(cd "$APP" && FORBIDDEN="$forbidden" node "forbid.$kind" "$spec" 2>&1)"; then
      pass "$label import \"$spec\" does not load $forbidden"
    else
      fail "$label import \"$spec\" must not load $forbidden"
      indent <<<"$out"
    fi
  done
done

# The same from the built files' import graph (import and require conditions), which also sees a
# lazy import()/require() that the runtime check above only sees when it runs.
cat >"$APP/graph.mjs" <<'EOF'
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const [spec, forbiddenList] = process.argv.slice(2);
const forbidden = forbiddenList.split(' ').filter(Boolean);
const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;
const seen = new Set();
const bad = [];
function walk(file) {
  if (seen.has(file)) return;
  seen.add(file);
  for (const [, s] of fs.readFileSync(file, 'utf8').matchAll(SPEC)) {
    if (s.startsWith('.')) walk(path.resolve(path.dirname(file), s));
    else if (forbidden.some((n) => s === n || s.startsWith(`${n}/`))) bad.push(`${path.basename(file)} -> ${s}`);
  }
}
walk(fileURLToPath(import.meta.resolve(spec)));
walk(createRequire(import.meta.url).resolve(spec));
if (bad.length) { console.error(bad.join('\n')); process.exit(1); }
console.log(`${seen.size} files`);
EOF
for entry in "${!MUST_NOT_LOAD[@]}"; do
  spec="$PKG_NAME${entry#.}"
  forbidden="${MUST_NOT_LOAD[$entry]}"
  if out="$(cd "$APP" && node graph.mjs "$spec" "$forbidden" 2>&1)"; then
    pass "import graph of \"$spec\" ($out, ESM and CJS) does not reference $forbidden"
  else
    fail "import graph of \"$spec\" references $forbidden"
    indent <<<"$out"
  fi
done
# Self-test of the graph walk: a file that reaches a package through a relative chunk is caught.
mkdir -p "$APP/selftest"
printf "export * from './chunk.js';\n" >"$APP/selftest/entry.js"
printf "const lazy = () => import('openid-client/some/path');\nexport { lazy };\n" >"$APP/selftest/chunk.js"
if (cd "$APP" && node graph.mjs ./selftest/entry.js openid-client >/dev/null 2>&1); then
  fail "self-test: the import-graph walk missed a forbidden package behind a chunk"
else
  pass "self-test: the import-graph walk finds a forbidden package behind a chunk"
fi

# --- publint and @arethetypeswrong/cli on the tarball ---------------------------------------------
if out="$(npx --no-install publint run "$TARBALL" --strict 2>&1)"; then
  pass "publint (strict)"
else
  fail "publint (strict)"
fi
indent <<<"$out" | grep -v 'Unknown user config' || true

if out="$(npx --no-install attw "$TARBALL" --format ascii --no-emoji --no-color 2>&1)"; then
  pass "@arethetypeswrong/cli"
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

# --- the entry points again, with the optional peers installed (last: all else ran without them) ----
if [[ -n "$PEERS" ]]; then
  # shellcheck disable=SC2086
  if (cd "$APP" && npm install --no-package-lock --prefer-offline $PEERS >>"$WORK/install.log" 2>&1); then
    check_entries "with $PEERS"
  else
    fail "install the optional peers $PEERS"
    indent <"$WORK/install.log"
  fi
fi

echo
if ((FAILURES > 0)); then
  echo "package checks: $FAILURES failed"
  exit 1
fi
echo "package checks: all passed"
