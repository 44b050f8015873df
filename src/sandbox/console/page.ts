// The console page at /_sandbox/: static HTML, a stylesheet and a script, served from these
// strings. The only per-session value is the CSRF token in a <meta> the script reads. Data
// reaches the page as JSON (fetch) and server-sent events and is only ever put in the DOM
// as textContent, control and bidi characters shown as \uXXXX escapes.
import { escapeHtml } from '../consent-page.js';

export const CONSOLE_PATH = '/_sandbox/';
export const CONSOLE_SCRIPT_PATH = '/_sandbox/console.js';
export const CONSOLE_STYLE_PATH = '/_sandbox/console.css';
/** An empty icon: without one the browser asks for /favicon.ico, which the API answers 404. */
export const CONSOLE_ICON_PATH = '/_sandbox/favicon.ico';

export function consoleHtml(token: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="sandbox-token" content="${escapeHtml(token)}">
<title>Platform sandbox console</title>
<link rel="icon" href="${CONSOLE_ICON_PATH}">
<link rel="stylesheet" href="${CONSOLE_STYLE_PATH}">
<script src="${CONSOLE_SCRIPT_PATH}" defer></script>
</head>
<body>
<a class="skip" href="#log">Skip to the request log</a>
<header><h1>Platform sandbox console</h1><p id="chaos" class="note">Loading…</p></header>
<main>
<section aria-labelledby="state-title">
<h2 id="state-title">State</h2>
<form id="save-form" class="row">
<label for="snapshot-name">Snapshot name</label>
<input id="snapshot-name" name="name" required pattern="[A-Za-z0-9_\\-][A-Za-z0-9._\\-]{0,63}" autocomplete="off">
<button type="submit" id="save">Save snapshot</button>
<button type="button" id="reset">Reset to seeded data</button>
</form>
<p id="status" role="status" aria-live="polite"></p>
<table id="snapshots"><caption>Snapshots</caption><thead><tr><th scope="col">Name</th><th scope="col">Campaigns</th><th scope="col">Bytes</th><th scope="col">Action</th></tr></thead><tbody></tbody></table>
</section>
<section aria-labelledby="log-title">
<h2 id="log-title">Requests</h2>
<p class="row"><label><input type="checkbox" id="faults-only"> Only requests with an injected fault</label> <button type="button" id="clear-log">Clear the view</button></p>
<div class="scroll" tabindex="0" role="region" aria-labelledby="log-title">
<table id="log"><thead><tr><th scope="col">#</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">ms</th><th scope="col">Injected fault</th><th scope="col">Route, request n</th><th scope="col">User agent</th></tr></thead><tbody></tbody></table>
</div>
</section>
<section aria-labelledby="accounts-title">
<h2 id="accounts-title">Accounts and campaigns</h2>
<table id="accounts"><thead><tr><th scope="col">Account</th><th scope="col">Id</th><th scope="col">Currency</th><th scope="col">Active</th><th scope="col">Campaigns</th></tr></thead><tbody></tbody></table>
<p class="row"><label for="account">Campaigns of</label> <select id="account"></select> <span id="campaign-count" class="note"></span></p>
<div class="scroll" tabindex="0" role="region" aria-label="Campaigns">
<table id="campaigns"><thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Status</th><th scope="col">Objective</th></tr></thead><tbody></tbody></table>
</div>
</section>
<section aria-labelledby="rides-title">
<h2 id="rides-title">Rides in flight</h2>
<table id="rides"><thead><tr><th scope="col">Request</th><th scope="col">Status</th><th scope="col">User</th><th scope="col">Application</th><th scope="col">Product</th></tr></thead><tbody></tbody></table>
</section>
<section aria-labelledby="webhooks-title">
<h2 id="webhooks-title">Webhook deliveries</h2>
<table id="webhook-settings"><caption>Settings of each application</caption><thead><tr><th scope="col">Application</th><th scope="col">URL</th><th scope="col">Authentication</th></tr></thead><tbody></tbody></table>
<table id="webhooks"><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">URL</th><th scope="col">Attempt</th><th scope="col">Result</th><th scope="col">Next attempt</th></tr></thead><tbody></tbody></table>
</section>
</main>
</body></html>
`;
}

export const CONSOLE_STYLE = `body{font-family:system-ui,sans-serif;margin:1rem 2rem;color:#1b1b1b;background:#fff}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem;margin-top:1.6rem}
table{border-collapse:collapse;width:100%;font-size:.85rem}caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border-bottom:1px solid #ddd;padding:.2rem .4rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
.scroll{max-height:24rem;overflow:auto;border:1px solid #ccc}.row{display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}
.note{color:#555;font-size:.85rem}.fault{color:#a00;font-weight:600}.status-error{color:#a00}
button,input,select{font-size:.95rem;padding:.3rem .6rem}
:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:#fff;padding:.3rem}
`;

export const CONSOLE_SCRIPT = `'use strict';
(() => {
  const token = document.querySelector('meta[name="sandbox-token"]').getAttribute('content');
  const $ = (id) => document.getElementById(id);
  const LOG_ROWS = 500;
  // Control, bidi and other invisible characters as \\uXXXX: what a hostile body holds is seen, not obeyed.
  const visible = (value) => String(value ?? '').replace(/[\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff]/g, (c) => '\\\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  const row = (cells, className) => {
    const tr = document.createElement('tr');
    if (className) tr.className = className;
    for (const value of cells) {
      const td = document.createElement('td');
      td.textContent = visible(value);
      tr.appendChild(td);
    }
    return tr;
  };
  const fill = (tbody, rows) => tbody.replaceChildren(...rows);
  const say = (text, error) => {
    $('status').textContent = visible(text);
    $('status').className = error ? 'status-error' : '';
  };
  const getJson = async (path) => {
    const res = await fetch(path, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(path + ': HTTP ' + res.status);
    return res.json();
  };
  const post = async (path, body) => {
    const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', 'x-sandbox-token': token }, body: JSON.stringify(body || {}) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.message || 'HTTP ' + res.status);
    return data;
  };

  let account = '';
  async function refresh() {
    const view = await getJson('/_sandbox/overview' + (account ? '?account=' + encodeURIComponent(account) : ''));
    const c = view.chaos;
    const rules = c.rules.length ? c.rules.join('; ') : 'none';
    $('chaos').textContent = visible('Chaos seed ' + c.seed + ' · fail ' + c.failRate + ' · throttle ' + c.throttleRate + ' · item fail ' + c.itemFailRate + ' · --fault rules: ' + rules);
    fill($('accounts').tBodies[0], view.accounts.map((a) => row([a.name, a.ad_account_id, a.currency_code, a.active ? 'yes' : 'no', a.campaigns])));
    const select = $('account');
    if (select.options.length !== view.accounts.length || !account) {
      select.replaceChildren(...view.accounts.map((a) => {
        const option = document.createElement('option');
        option.value = a.ad_account_id;
        option.textContent = visible(a.name);
        return option;
      }));
    }
    account = view.campaigns.account || '';
    select.value = account;
    $('campaign-count').textContent = view.campaigns.total > view.campaigns.items.length ? 'newest ' + view.campaigns.items.length + ' of ' + view.campaigns.total : view.campaigns.total + ' campaigns';
    fill($('campaigns').tBodies[0], view.campaigns.items.map((x) => row([x.name, x.campaign_id, x.configured_status, x.objective])));
    fill($('rides').tBodies[0], view.rides.map((r) => row([r.request_id, r.status, r.user_id, r.client_id, r.product])));
    fill($('webhook-settings').tBodies[0], view.webhookSettings.map((w) => row([w.client_id, w.url, w.auth])));
    fill($('webhooks').tBodies[0], view.webhooks.map((w) => row([w.event_type + ' ' + w.resource_id, w.status, w.url, w.attempt + ' of ' + w.of, w.result, w.next])));
    fill($('snapshots').tBodies[0], view.snapshots.map((s) => {
      const tr = row([s.name, s.campaigns, s.bytes ?? 'in memory']);
      const td = document.createElement('td');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Restore';
      button.setAttribute('aria-label', 'Restore snapshot ' + visible(s.name));
      button.addEventListener('click', () => act(() => post('/_sandbox/snapshots/' + encodeURIComponent(s.name) + '/restore'), 'Restored ' + s.name));
      td.appendChild(button);
      tr.appendChild(td);
      return tr;
    }));
  }
  const refreshSoon = () => refresh().catch((e) => say(e.message, true));

  async function act(run, done) {
    try {
      const result = await run();
      say(done + ' in ' + Math.round(result.ms) + ' ms');
      await refresh();
    } catch (e) {
      say(e.message, true);
    }
  }

  $('save-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const name = $('snapshot-name').value;
    void act(() => post('/_sandbox/snapshots', { name }), 'Saved ' + name);
  });
  $('reset').addEventListener('click', () => act(() => post('/_sandbox/reset'), 'Reset to the seeded data'));
  $('account').addEventListener('change', (event) => {
    account = event.target.value;
    refreshSoon();
  });

  const logBody = $('log').tBodies[0];
  const showRow = (tr) => { tr.hidden = $('faults-only').checked && !tr.classList.contains('fault'); };
  $('faults-only').addEventListener('change', () => { for (const tr of logBody.rows) showRow(tr); });
  $('clear-log').addEventListener('click', () => logBody.replaceChildren());
  const events = new EventSource('/_sandbox/events');
  events.addEventListener('request', (event) => {
    const e = JSON.parse(event.data);
    const tr = row([e.seq, e.method, e.path, e.status === 0 ? 'dropped' : e.status, e.latencyMs, e.fault || '', e.route ? e.route + ' #' + e.n : '', e.userAgent || ''], e.fault ? 'fault' : '');
    showRow(tr);
    logBody.prepend(tr);
    while (logBody.rows.length > LOG_ROWS) logBody.lastElementChild.remove();
  });
  events.addEventListener('state', refreshSoon);
  refreshSoon();
  setInterval(refreshSoon, 2000);
})();
`;
