/**
 * The small HTML pages of the simulated institution step. Each interactive page holds exactly one
 * form whose default values (the preselected institution, the scripted consent answer) are what a
 * scripted user submits, so `authorize()` and a person in a real browser go through the same steps.
 */

import { escapeHtml } from '../core/html.js';
import type { PendingTransaction } from './context.js';

/**
 * An HTML page with its security headers. The Content-Security-Policy: no scripts at all, no framing,
 * the inline style and the empty `data:` favicon. `form-action` allows the provider itself and, on
 * the pages of a transaction, the origin of the client's registered `redirect_uri`: Chromium applies
 * `form-action` to the redirect that follows a form submission (a POST to `…/consent` answered with
 * 303 to the shop's callback), so `'self'` alone would stop the shopper there. Firefox does not.
 */
function htmlResponse(
  body: string,
  status: number,
  extraHeaders: Record<string, string>,
  redirectUri?: string,
): Response {
  let formAction = "'self'";
  if (redirectUri !== undefined && URL.canParse(redirectUri)) {
    const target = new URL(redirectUri);
    // An origin is a valid CSP host-source; a scheme without an origin (a custom app scheme) is
    // allowed by its scheme-source.
    formAction += target.origin === 'null' ? ` ${target.protocol}` : ` ${target.origin}`;
  }
  return new Response(body, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...extraHeaders,
    },
  });
}

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
label{display:block;margin:.5rem 0}input[type=text],input[type=password]{display:block;margin-bottom:.5rem}fieldset{border:0;padding:0}button{margin-top:1rem;padding:.4rem 1.2rem}</style></head>
<body>
<p><small>Affiliation validation — local test provider</small></p>
<h1>${escapeHtml(title)}</h1>
${content}
</body>
</html>
`;
}

/** A page of a transaction: `intro`, then one form that posts `fields` and the transaction back to `action`. */
function formPage(
  title: string,
  intro: string,
  action: string,
  tx: PendingTransaction,
  fields: string,
): Response {
  const form = `${intro}<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="tx" value="${escapeHtml(tx.id)}">
${fields}
</form>`;
  return htmlResponse(layout(title, form), 200, {}, tx.redirectUri);
}

export function selectionPage(
  action: string,
  tx: PendingTransaction,
  institutions: readonly { entityId: string; name: string }[],
): Response {
  const options = institutions
    .map(
      (inst, index) =>
        `<option value="${escapeHtml(inst.entityId)}"${index === 0 ? ' selected' : ''}>${escapeHtml(inst.name)}</option>`,
    )
    .join('\n');
  const fields = `<label>Institution <select name="entity_id" autocomplete="off">
${options}
</select></label>
<button type="submit">Continue</button>`;
  return formPage('Select your institution', '', action, tx, fields);
}

export function loginPage(action: string, tx: PendingTransaction, institutionName: string, userId: string) {
  const intro = `<p>This page stands for the institution's own identity provider. The outcome of the login is
scripted by the test (<code>scriptLogin()</code>); the password is not checked.</p>
`;
  const fields = `<label for="username">Username</label>
<input id="username" type="text" name="username" value="${escapeHtml(userId)}" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" type="password" name="password" value="test" autocomplete="current-password">
<button type="submit">Log in</button>`;
  return formPage(`Log in at ${institutionName}`, intro, action, tx, fields);
}

/** The consent page, its answer preselected as the login outcome says. */
export function consentPage(
  action: string,
  tx: PendingTransaction,
  institutionName: string,
  consent: boolean,
) {
  const intro = `<p>${escapeHtml(institutionName)} is about to confirm to <strong>${escapeHtml(tx.client.clientId)}</strong> that you are
affiliated as <strong>${escapeHtml(tx.scope.affiliation)}</strong>.</p>
`;
  const fields = `<fieldset><legend>Release the affiliation</legend>
<label><input type="radio" name="consent" value="yes"${consent ? ' checked' : ''}> Yes, release it</label>
<label><input type="radio" name="consent" value="no"${consent ? '' : ' checked'}> No</label>
</fieldset>
<button type="submit">Send</button>`;
  return formPage('Release your affiliation?', intro, action, tx, fields);
}

/** A page that only tells the user something (an error, an ended transaction). */
export function messagePage(
  title: string,
  message: string,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return htmlResponse(layout(title, `<p>${escapeHtml(message)}</p>`), status, headers);
}
