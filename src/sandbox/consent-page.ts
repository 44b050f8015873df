// HTML of the sandbox's consent and error pages: plain server-rendered forms, no script,
// so that they work in any browser (and in a terminal browser over SSH).
import { SCOPE_DESCRIPTIONS } from '../schemas/oauth.js';
import type { SandboxResponse } from './http.js';
import type { SandboxUser } from './users.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.4rem}ul{padding-left:1.2rem}li{margin:.4rem 0}code{background:#f2f2f2;padding:0 .2rem}
.buttons{display:flex;gap:1rem;margin-top:1.5rem}button{font-size:1rem;padding:.6rem 1.4rem;border-radius:.3rem;border:1px solid #555;cursor:pointer}
button.allow{background:#111;color:#fff}.note{color:#666;font-size:.85rem;margin-top:2rem}`;

function page(status: number, title: string, body: string): SandboxResponse {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>${body}</body></html>
`;
  return {
    status,
    raw: html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // No framing (clickjacking the Allow button), no scripts. No form-action: browsers
      // apply it to the redirect after the form post, which goes to the app's own URI.
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
    },
  };
}

export interface ConsentView {
  pendingId: string;
  applicationName: string;
  user: SandboxUser;
  scopes: readonly string[];
  action: string;
}

export function consentPage(view: ConsentView): SandboxResponse {
  const items = view.scopes.map((s) => `<li><strong>${escapeHtml(SCOPE_DESCRIPTIONS[s] ?? s)}</strong> <code>${escapeHtml(s)}</code></li>`).join('\n');
  return page(
    200,
    `Allow ${view.applicationName}?`,
    `<h1>Allow <span id="application">${escapeHtml(view.applicationName)}</span> to access your account?</h1>
<p>Signed in as <strong id="user">${escapeHtml(`${view.user.first_name} ${view.user.last_name}`)}</strong> (${escapeHtml(view.user.email)}).</p>
<p>It will be able to:</p>
<ul id="scopes">
${items}
</ul>
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="request_id" value="${escapeHtml(view.pendingId)}">
<div class="buttons">
<button type="submit" name="decision" value="allow" class="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</div>
</form>
<p class="note">Platform sandbox: no real account is involved; this page acts for a seeded demo user.</p>`,
  );
}

/** For requests that cannot be answered with a redirect (unknown client, redirect URI or scope). */
export function errorPage(status: number, error: string, description: string): SandboxResponse {
  return page(
    status,
    'Sign-in error',
    `<h1>This sign-in request cannot be completed</h1>
<p id="error"><code>${escapeHtml(error)}</code>: ${escapeHtml(description)}</p>
<p>Return to the application and start again.</p>`,
  );
}
