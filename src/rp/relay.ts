import { OptionsError } from '../core/errors.js';
import { escapeHtml } from '../core/html.js';
import { randomBase64url } from '../core/random.js';
import { ENGLISH, type Speaker } from '../i18n/texts.js';

/** Options of {@link fragmentRelayHtml}. @group Callback */
export interface FragmentRelayOptions {
  /**
   * Where the page posts the fragment's parameters: a same-origin path (`/callback`) or an absolute
   * `http(s)` URL of the same origin (the CSP's `form-action 'self'` blocks any other). Default:
   * the path of the page itself, as the browser shows it (the callback route).
   */
  action?: string | undefined;
  /**
   * The CSP nonce for the page's script, 128 bits or more as base64/base64url (at least 22
   * characters). Default: 128 random bits, fresh on every call. Pass your own only when your
   * framework already generates one per response.
   */
  nonce?: string | undefined;
}

/** A ready-to-send relay page. @group Callback */
export interface FragmentRelayPage {
  /** The page, UTF-8 HTML. */
  html: string;
  /** Response headers: content type, a strict Content-Security-Policy and no caching. */
  headers: Record<string, string>;
  /** The nonce used in the CSP and on the script tag. */
  nonce: string;
}

const NONCE_RE = /^[A-Za-z0-9+/_-]{22,}={0,2}$/;

// The page's script: no request data is ever written into the page; it reads the fragment in the
// browser, clears it from the address bar and history, and posts its parameters as
// application/x-www-form-urlencoded fields, exactly as response_mode=form_post would. ES5 so
// that old browsers still relay.
const RELAY_SCRIPT = `(function () {
  var hash = window.location.hash || '';
  var form = document.getElementById('relay');
  if (hash.length > 0 && window.history && window.history.replaceState) {
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  var fields = new URLSearchParams(hash.charAt(0) === '#' ? hash.slice(1) : hash);
  var count = 0;
  fields.forEach(function (value, name) {
    if (name === '') return;
    var input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
    count += 1;
  });
  document.getElementById('working').hidden = true;
  if (count === 0) {
    document.getElementById('empty').hidden = false;
    return;
  }
  if (!form.getAttribute('action')) form.setAttribute('action', window.location.pathname);
  document.getElementById('sending').hidden = false;
  form.submit();
})();`;

/**
 * The relay page for answers the service puts in the URL fragment (`response_type=id_token`, and
 * errors sent in the fragment). Browsers never send the fragment to the server, so serve this page
 * from the callback route when a GET arrives without query parameters: it reads `location.hash`,
 * removes it from the address bar, and posts its parameters to `action` as an
 * `application/x-www-form-urlencoded` form, which `validateCallback` accepts. With no fragment it
 * shows a short message instead.
 *
 * Send `headers` with the page: its Content-Security-Policy allows only this page's script (by
 * nonce) and form posts to the same origin, and forbids framing.
 *
 * @example
 * ```ts
 * const { html, headers } = fragmentRelayHtml();
 * return new Response(html, { status: 200, headers });
 * ```
 * @throws {OptionsError} when `action` is not a same-origin path or http(s) URL, or `nonce` is too short.
 * @group Callback
 */
export function fragmentRelayHtml(options: FragmentRelayOptions = {}, speaker?: Speaker): FragmentRelayPage {
  const { action, nonce = randomBase64url(16) } = options ?? {};
  // In English; `callbackHandler()` serves it in the shopper's language.
  const texts = speaker ?? ENGLISH;
  const t = (key: Parameters<Speaker['text']>[0]) => escapeHtml(texts.text(key));
  if (typeof nonce !== 'string' || !NONCE_RE.test(nonce)) {
    throw new OptionsError(
      'Option `nonce` must be base64 or base64url of at least 128 bits (22 or more characters of A–Z, a–z, 0–9, +, /, -, _)',
    );
  }
  if (action !== undefined) checkAction(action);

  const actionAttribute = action === undefined ? '' : ` action="${escapeHtml(action)}"`;
  const html = `<!DOCTYPE html>
<html lang="${escapeHtml(texts.lang)}">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${t('relay.title')}</title>
</head>
<body>
<p id="working">${t('relay.working')}</p>
<p id="sending" hidden>${t('relay.sending')}</p>
<p id="empty" hidden>${t('relay.empty')}</p>
<noscript><p>${t('relay.noscript')}</p></noscript>
<form id="relay" method="post" enctype="application/x-www-form-urlencoded"${actionAttribute}></form>
<script nonce="${nonce}">${RELAY_SCRIPT}</script>
</body>
</html>
`;
  return {
    html,
    nonce,
    headers: pageHeaders(
      `default-src 'none'; script-src 'nonce-${nonce}'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    ),
  };
}

/** The headers of the SDK's own pages: no caching, no Referer, and the page's `csp`. */
export function pageHeaders(csp: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
}

/** A form's target on the page's own origin (its CSP says `form-action 'self'`); `name` is the option's. */
export function checkAction(action: unknown, name = 'action'): void {
  if (typeof action !== 'string' || action === '') {
    throw new OptionsError(`Option \`${name}\` must be a non-empty path or URL`);
  }
  if (action.startsWith('/')) {
    // "//host" and "/\\host" are network-path references: another origin.
    if (action.startsWith('//') || action.startsWith('/\\')) {
      throw new OptionsError(`Option \`${name}\` must be a same-origin path; "//…" names another host`);
    }
    return;
  }
  let url: URL;
  try {
    url = new URL(action);
  } catch {
    throw new OptionsError(`Option \`${name}\` must be a path starting with "/" or an absolute http(s) URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new OptionsError(`Option \`${name}\` must use http: or https:, not ${url.protocol}`);
  }
}
