// The console page at /_sandbox/: static HTML and a stylesheet from here, and one script
// (browser/, typed TypeScript bundled by esbuild: ../../base/page-script.ts). The only
// per-session value is the CSRF token in a <meta> the script reads. Data reaches the page as
// JSON (fetch) and server-sent events and is only ever put in the DOM as textContent, control
// and bidi characters shown as \uXXXX escapes.
import { escapeHtml } from '../consent-page.js';

export const CONSOLE_PATH = '/_sandbox/';
export const CONSOLE_SCRIPT_PATH = '/_sandbox/console.js';
export const CONSOLE_STYLE_PATH = '/_sandbox/console.css';
/** An empty icon: without one the browser asks for /favicon.ico, which the API answers 404. */
export const CONSOLE_ICON_PATH = '/_sandbox/favicon.ico';
/** The bundle of browser/console-page.ts in dist/. */
export const CONSOLE_SCRIPT_FILE = 'console-page.js';

const empty = (id: string, title: string, body: string) => `<div id="${id}" class="empty" hidden><p class="empty-title">${title}</p>${body}</div>`;

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
<a class="skip" href="#log-region">Skip to the request log</a>
<header class="top"><h1>Platform sandbox console</h1><p id="chaos" class="note">Loading…</p>
<button type="button" id="help-open" class="quiet" aria-haspopup="dialog" title="Keyboard shortcuts (?)">? Keys</button></header>
<main>
<section aria-labelledby="state-title" class="card">
<h2 id="state-title">State</h2>
<form id="save-form" class="row" novalidate>
<label for="snapshot-name">Snapshot name</label>
<input id="snapshot-name" name="name" autocomplete="off" spellcheck="false" aria-describedby="name-help name-error" placeholder="e.g. clean">
<button type="submit" id="save" class="primary">Save snapshot</button>
<span class="grow"></span>
<button type="button" id="reset" class="danger">Reset to seeded data…</button>
</form>
<p id="name-help" class="note">Letters, digits, '.', '_' and '-'; up to 64; not starting with a dot.</p>
<p id="name-error" class="field-error" aria-live="polite"></p>
<p id="status" role="status" aria-live="polite"></p>
<div class="wide" tabindex="0" role="region" aria-label="Snapshots"><table id="snapshots"><caption>Snapshots</caption>
<colgroup><col><col class="w-num"><col class="w-num"><col class="w-action"></colgroup>
<thead><tr><th scope="col">Name</th><th scope="col" class="num">Campaigns</th><th scope="col" class="num">Size</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead><tbody></tbody></table></div>
${empty('snapshots-empty', 'No snapshots yet', '<p>Name the state above and save it, or run <code>platform sandbox snapshot save clean</code>; restore it between test cases.</p>')}
</section>
<section aria-labelledby="log-title" class="card">
<h2 id="log-title">Requests</h2>
<div class="row"><label class="search"><span class="visually-hidden">Filter requests</span><input type="search" id="log-filter" placeholder="Filter (/): path, method, status" autocomplete="off"></label>
<label><input type="checkbox" id="faults-only"> Only requests with an injected fault</label> <span class="grow"></span><button type="button" id="clear-log">Clear the view</button></div>
<div class="scroll" id="log-region" tabindex="0" role="region" aria-labelledby="log-title">
<table id="log"><colgroup><col class="w-seq"><col class="w-method"><col><col class="w-status"><col class="w-ms"><col class="w-fault"><col class="w-route"><col class="w-agent"></colgroup>
<thead><tr><th scope="col" class="num">#</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col" class="num">Status</th><th scope="col" class="num">ms</th><th scope="col">Injected fault</th><th scope="col" class="c-route">Route, request n</th><th scope="col" class="c-agent">User agent</th></tr></thead><tbody></tbody></table>
${empty('log-empty', 'No API requests yet', '<p>Send one against this sandbox, e.g. <code>platform ads campaigns list</code> (the built-in <code>local</code> profile points here); each answer appears as it goes out.</p>')}
</div>
</section>
<section aria-labelledby="accounts-title" class="card">
<h2 id="accounts-title">Accounts and campaigns</h2>
<div class="wide" tabindex="0" role="region" aria-label="Accounts"><table id="accounts"><colgroup><col><col class="w-id"><col class="w-cur"><col class="w-flag"><col class="w-num"></colgroup>
<thead><tr><th scope="col">Account</th><th scope="col">Id</th><th scope="col">Currency</th><th scope="col">Active</th><th scope="col" class="num">Campaigns</th></tr></thead><tbody></tbody></table></div>
<p class="row"><label for="account">Campaigns of</label> <select id="account"></select> <span id="campaign-count" class="note"></span></p>
<div class="scroll" tabindex="0" role="region" aria-label="Campaigns">
<table id="campaigns"><colgroup><col><col class="w-id"><col class="w-status"><col class="w-objective"></colgroup>
<thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Status</th><th scope="col">Objective</th></tr></thead><tbody></tbody></table>
${empty('campaigns-empty', 'No campaigns in this account', '<p>Create one: <code>platform ads campaigns create --name "Spring sale"</code>.</p>')}
</div>
</section>
<section aria-labelledby="rides-title" class="card">
<h2 id="rides-title">Rides in flight</h2>
<div class="wide" tabindex="0" role="region" aria-label="Rides in flight"><table id="rides"><colgroup><col class="w-id"><col class="w-status"><col><col><col></colgroup>
<thead><tr><th scope="col">Request</th><th scope="col">Status</th><th scope="col">User</th><th scope="col">Application</th><th scope="col">Product</th></tr></thead><tbody></tbody></table></div>
${empty('rides-empty', 'No ride in flight', '<p>Request one: <code>platform rider request --product Economy --from 37.7749,-122.4194 --to 37.7599,-122.4148 --yes</code>.</p>')}
</section>
<section aria-labelledby="webhooks-title" class="card">
<h2 id="webhooks-title">Webhook deliveries</h2>
<div class="wide" tabindex="0" role="region" aria-label="Webhook settings"><table id="webhook-settings"><caption>Settings of each application</caption><colgroup><col class="w-app"><col><col class="w-auth"></colgroup>
<thead><tr><th scope="col">Application</th><th scope="col">URL</th><th scope="col">Authentication</th></tr></thead><tbody></tbody></table></div>
<div class="wide" tabindex="0" role="region" aria-label="Webhook deliveries"><table id="webhooks"><colgroup><col><col class="w-status"><col><col class="w-attempt"><col class="w-result"><col class="w-next"></colgroup>
<thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">URL</th><th scope="col">Attempt</th><th scope="col">Result</th><th scope="col">Next attempt</th></tr></thead><tbody></tbody></table></div>
${empty('webhooks-empty', 'No webhook delivery yet', '<p>Give an application a URL (<code>platform sandbox serve --webhook-url http://127.0.0.1:4011/</code>, with <code>platform webhooks listen --port 4011 --inspect</code> there) and request a ride.</p>')}
</section>
</main>
<dialog id="confirm" aria-labelledby="confirm-title" aria-describedby="confirm-text">
<h2 id="confirm-title"></h2><p id="confirm-text"></p>
<div class="row end"><button type="button" id="confirm-cancel" autofocus>Cancel</button><button type="button" id="confirm-ok" class="danger"></button></div>
</dialog>
<dialog id="help" aria-labelledby="help-title">
<h2 id="help-title">Keyboard shortcuts</h2>
<dl class="keys"><dt><kbd>j</kbd> / <kbd>k</kbd></dt><dd>next / previous request in the log</dd>
<dt><kbd>Enter</kbd></dt><dd>show the request's route and user agent</dd>
<dt><kbd>/</kbd></dt><dd>filter the log</dd><dt><kbd>f</kbd></dt><dd>only requests with an injected fault</dd>
<dt><kbd>Esc</kbd></dt><dd>close a dialog</dd><dt><kbd>?</kbd></dt><dd>show this list</dd></dl>
<form method="dialog"><button type="submit">Close</button></form>
</dialog>
</body></html>
`;
}

// Fixed column widths (table-layout: fixed) and no wrapping in a cell: a long value ends in
// an ellipsis and shows whole in its title. The palette follows prefers-color-scheme.
export const CONSOLE_STYLE = `:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--soft:#f6f8fa;--accent:#0969da;--bad:#cf222e;--ok:#116329;--current:#ddf4ff;--strong:#0969da}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--soft:#161b22;--accent:#4493f8;--bad:#ff7b72;--ok:#3fb950;--current:#1f2f46;--strong:#1a5fc8}}
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;padding:1rem 2rem;color:var(--fg);background:var(--bg);font-size:15px}
.top{display:flex;flex-wrap:wrap;gap:.3rem 1rem;align-items:baseline}.top .note{flex:1 1 20rem;overflow-wrap:anywhere}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.05rem;margin:0 0 .5rem}
.card{border:1px solid var(--line);border-radius:8px;padding:.8rem 1rem;margin:1rem 0}
table{border-collapse:collapse;width:100%;font-size:.85rem;table-layout:fixed}caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border-bottom:1px solid var(--line);padding:.3rem .45rem;text-align:left;vertical-align:middle;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
th{font-size:.75rem;text-transform:uppercase;letter-spacing:.03em;color:var(--muted);position:sticky;top:0;background:var(--bg)}
.num{text-align:right;font-variant-numeric:tabular-nums}
td.mono{font-family:ui-monospace,monospace;font-size:.8rem}
td.tail{direction:rtl}td.tail>span{direction:ltr;unicode-bidi:isolate}
col.w-seq{width:4.5rem}col.w-method{width:5.5rem}col.w-status{width:7.5rem}col.w-ms{width:4.5rem}col.w-fault{width:13rem}col.w-route{width:13rem}col.w-agent{width:8rem}
col.w-num{width:7rem}col.w-action{width:6.5rem}col.w-id{width:19rem}col.w-cur{width:6rem}col.w-flag{width:5rem}col.w-objective{width:10rem}
col.w-app{width:12rem}col.w-auth{width:14rem}col.w-attempt{width:6rem}col.w-result{width:12rem}col.w-next{width:14rem}
.scroll{max-height:24rem;overflow:auto;border:1px solid var(--line);border-radius:6px}.wide{overflow-x:auto}
.row{display:flex;gap:.6rem;align-items:center;flex-wrap:wrap;margin:.4rem 0}.row.end{justify-content:flex-end}.grow{flex:1 1 0}
.note{color:var(--muted);font-size:.85rem;margin:.3rem 0}
tr.fault td{color:var(--bad)}tr.fault td.fault{font-weight:600}.status-error{color:var(--bad)}.status-ok{color:var(--ok)}
tr.current{background:var(--current);box-shadow:inset 3px 0 0 var(--accent)}
button,input,select{font:inherit;font-size:.95rem;padding:.3rem .6rem;color:inherit;background:var(--soft);border:1px solid var(--line);border-radius:6px}
input{background:var(--bg)}input[aria-invalid=true]{border-color:var(--bad);box-shadow:0 0 0 1px var(--bad)}
button:not(:disabled){cursor:pointer}button.primary{background:var(--strong);border-color:var(--strong);color:#fff}
button.danger{color:var(--bad);border-color:var(--bad)}button.quiet{background:none}
.field-error{color:var(--bad);font-size:.85rem;margin:.2rem 0;min-height:0}
input[type=search]{width:18rem;max-width:100%}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.3rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.empty{padding:1rem .5rem;color:var(--muted)}.empty-title{font-weight:600;color:var(--fg);margin:0 0 .3rem}.empty p{margin:.2rem 0}
code,kbd{font-family:ui-monospace,monospace;font-size:.85em;overflow-wrap:anywhere}
kbd{border:1px solid var(--line);border-bottom-width:2px;border-radius:4px;padding:0 .3rem;background:var(--soft)}
dialog{background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:8px;max-width:min(32rem,92vw)}dialog::backdrop{background:#0008}
dl.keys{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}dl.keys dd{margin:0}
@media (max-width:700px){body{padding:.5rem}.card{padding:.6rem}
.c-route,.c-agent,td.route,td.agent{display:none}col.w-route,col.w-agent{width:0}
col.w-seq{width:3.2rem}col.w-method{width:5.2rem}col.w-status{width:6rem}col.w-ms{width:3.4rem}col.w-fault{width:8rem}
col.w-num{width:6.4rem}col.w-action{width:6rem}col.w-id{width:8rem}col.w-cur{width:5.8rem}col.w-flag{width:4.6rem}col.w-objective{width:6rem}
col.w-app{width:9rem}col.w-auth{width:8rem}col.w-attempt{width:4.6rem}col.w-result{width:7rem}col.w-next{width:8rem}
main table{min-width:22rem}#snapshots{min-width:26rem}#log{min-width:34rem}#accounts{min-width:36rem}#campaigns,#webhook-settings{min-width:30rem}#rides{min-width:36rem}#webhooks{min-width:44rem}
.search{flex:1 1 100%}input[type=search]{width:100%}}
`;
