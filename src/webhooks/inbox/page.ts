// The inbox page: static HTML and a style sheet from here, and one script (browser/, typed
// TypeScript bundled by esbuild: ../../base/page-script.ts), served by server.ts under a CSP
// that allows nothing inline and nothing from another origin. Every byte of a delivery
// reaches the document through textContent only (no innerHTML anywhere), so a body holding
// <script> shows as text. The session token the API asks for is the one thing the HTML
// carries, in a meta tag the script reads.

/** The bundle of browser/inbox-page.ts in dist/. */
export const INBOX_SCRIPT_FILE = 'inbox-page.js';

export function inboxHtml(token: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="inbox-token" content="${token}">
<title>Webhook inbox</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header class="bar">
  <h1>Webhook inbox</h1>
  <p id="where" class="muted">Connecting…</p>
  <p id="live" role="status" aria-live="polite">connecting</p>
  <button type="button" id="help-open" class="quiet" aria-haspopup="dialog" title="Keyboard shortcuts (?)">? Keys</button>
</header>
<section id="toolbar" class="bar" aria-label="Filters and export">
  <label class="search"><span class="visually-hidden">Filter deliveries</span><input type="search" id="filter-text" placeholder="Filter (/): event, resource, id" autocomplete="off"></label>
  <label>Event type <select id="filter-type"><option value="">all</option></select></label>
  <label>Status <select id="filter-status"><option value="">all</option></select></label>
  <label>Verdict <select id="filter-verdict"><option value="">all</option><option value="valid">valid</option><option value="invalid">invalid</option></select></label>
  <label class="check"><input type="checkbox" id="select-all"> select all shown</label>
  <span id="count" class="muted" aria-live="polite"></span>
  <span class="grow"></span>
  <button type="button" id="export-ndjson">Export NDJSON</button>
  <button type="button" id="export-har">Export HAR</button>
</section>
<main id="panes">
  <section id="list-pane" aria-label="Deliveries">
    <table id="list">
      <colgroup><col class="c-select"><col class="c-time"><col class="c-verdict"><col class="c-type"><col class="c-status"><col class="c-resource"><col class="c-event"><col class="c-forward"></colgroup>
      <thead><tr><th scope="col"><span class="visually-hidden">Selected</span></th><th scope="col">Received</th><th scope="col" class="c-verdict">Verdict</th><th scope="col">Event type</th><th scope="col">Status</th><th scope="col" class="c-resource">Resource</th><th scope="col" class="c-event">Event</th><th scope="col" class="c-forward">Forward</th></tr></thead>
      <tbody id="rows"></tbody>
    </table>
    <div id="empty" class="empty">
      <p class="empty-title">No deliveries yet</p>
      <p>Point a sender at the listener, <code id="empty-url">its URL</code>; each delivery appears here as it arrives. To send a test event now:</p>
      <pre id="empty-command"></pre>
    </div>
    <div id="no-match" class="empty" hidden>
      <p class="empty-title">No delivery matches the filters</p>
      <p><button type="button" id="clear-filters">Clear the filters</button></p>
    </div>
  </section>
  <div id="splitter" role="separator" aria-orientation="vertical" aria-label="Resize the delivery pane" aria-controls="detail-pane" tabindex="0" aria-valuemin="20" aria-valuemax="80" aria-valuenow="40" title="Drag, or ← → with focus, to resize"></div>
  <section id="detail-pane" aria-label="Delivery">
    <p id="detail-placeholder" class="empty">Select a delivery to see its verdict, headers and body: click it, or press <kbd>j</kbd>/<kbd>k</kbd> and <kbd>Enter</kbd>.</p>
    <div id="detail" hidden>
    <h2 id="detail-title" tabindex="-1"></h2>
    <p id="detail-verdict"></p>
    <ul id="detail-notes"></ul>
    <p id="detail-meta" class="muted"></p>
    <div class="actions">
      <button type="button" id="replay" title="Replay (r)">Replay to the forward target</button>
      <button type="button" id="edit" title="Edit and replay (e)">Edit and replay…</button>
      <span id="target" class="muted"></span>
    </div>
    <section id="editor" aria-label="Edit and replay" hidden>
      <label for="edit-body">Body (sent as these exact UTF-8 bytes)</label>
      <textarea id="edit-body" rows="14" spellcheck="false"></textarea>
      <fieldset>
        <legend>Signature</legend>
        <label><input type="radio" name="signing" value="resigned" checked> re-signed with the secret</label>
        <label><input type="radio" name="signing" value="unsigned"> unsigned (no X-Platform-Signature)</label>
        <label><input type="radio" name="signing" value="wrong"> wrongly signed</label>
      </fieldset>
      <h3>Diff</h3>
      <pre id="diff" aria-label="Changes to the body"></pre>
      <div class="actions">
        <button type="button" id="send-edit" class="primary">Send</button>
        <button type="button" id="cancel-edit">Cancel</button>
      </div>
    </section>
    <p id="action-result" role="status" aria-live="polite"></p>
    <h3>Sends</h3>
    <ol id="sends"></ol>
    <h3>Headers</h3>
    <table id="headers"><colgroup><col class="c-name"><col></colgroup><thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead><tbody></tbody></table>
    <h3>Body, raw <span id="body-size" class="muted"></span></h3>
    <pre id="body-raw"></pre>
    <h3>Body, pretty</h3>
    <pre id="body-pretty"></pre>
    </div>
  </section>
</main>
<dialog id="help" aria-labelledby="help-title">
  <h2 id="help-title">Keyboard shortcuts</h2>
  <dl class="keys">
    <dt><kbd>j</kbd> / <kbd>k</kbd></dt><dd>next / previous delivery</dd>
    <dt><kbd>Enter</kbd></dt><dd>open the delivery (focus its details)</dd>
    <dt><kbd>r</kbd></dt><dd>replay it to the forward target</dd>
    <dt><kbd>e</kbd></dt><dd>edit and replay it</dd>
    <dt><kbd>/</kbd></dt><dd>filter</dd>
    <dt><kbd>Esc</kbd></dt><dd>close the editor or this list</dd>
    <dt><kbd>?</kbd></dt><dd>show this list</dd>
  </dl>
  <form method="dialog"><button type="submit" id="help-close">Close</button></form>
</dialog>
</body>
</html>
`;
}

// Fixed column widths (table-layout: fixed) and no wrapping in a cell: a long value ends in
// an ellipsis and shows whole in its title. The palette follows prefers-color-scheme.
export const INBOX_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; font-size: 15px;
  --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa; --accent: #0969da;
  --current: #ddf4ff; --ok: #116329; --strong: #0969da; --bad: #cf222e; --warn: #9a6700; --detail-width: 40%; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #30363d; --soft: #161b22;
  --accent: #4493f8; --current: #1f2f46; --ok: #3fb950; --strong: #1a5fc8; --bad: #ff7b72; --warn: #d29922; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
.bar { padding: 0.5rem 1rem; display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.15rem; margin: 0; }
h2 { font-size: 1.05rem; margin: 0.6rem 0 0.3rem; overflow-wrap: anywhere; }
h3 { font-size: 0.95rem; margin: 1rem 0 0.3rem; }
p { margin: 0.3rem 0; }
.muted { color: var(--muted); }
#where { flex: 1 1 20rem; min-width: 0; overflow-wrap: anywhere; }
#live { font-size: 0.9rem; }
.grow { flex: 1 1 0; }
button, select, input, textarea { font: inherit; color: inherit; }
button, select { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 0.25rem 0.6rem; }
button:not(:disabled) { cursor: pointer; }
button:disabled { opacity: 0.6; }
button.primary { background: var(--strong); border-color: var(--strong); color: #fff; }
button.quiet { background: none; }
input[type=search] { width: 14rem; max-width: 100%; padding: 0.25rem 0.5rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); }
#panes { display: grid; grid-template-columns: minmax(0, 1fr) 0.5rem minmax(16rem, var(--detail-width)); min-height: calc(100vh - 7rem); }
#list-pane { min-width: 0; padding: 0 0 1rem 1rem; }
#detail-pane { min-width: 0; padding: 0 1rem 1rem 0.5rem; border-left: 1px solid var(--line); }
#splitter { cursor: col-resize; background: transparent; touch-action: none; }
#splitter:hover, #splitter:focus-visible { background: var(--line); }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { text-align: left; padding: 0.3rem 0.45rem; border-bottom: 1px solid var(--line); vertical-align: middle;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
th { font-size: 0.8rem; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: 0.03em; }
#list td { font-variant-numeric: tabular-nums; }
col.c-select { width: 2.2rem; } col.c-time { width: 5.6rem; } col.c-verdict { width: 6.4rem; } col.c-type { width: 14.5rem; }
col.c-status { width: 8.8rem; } col.c-forward { width: 6rem; }
/* The columns a narrower list leaves out (the delivery pane shows them all), by the list's own width. */
#list-pane { container: list / inline-size; }
@container list (max-width: 900px) { col.c-resource { width: 0; } .c-resource, td.resource { display: none; } }
@container list (max-width: 640px) {
  col.c-event { width: 0; } .c-event, td.event { display: none; } col.c-type { width: auto; } }
@container list (max-width: 460px) {
  col.c-forward { width: 0; } .c-forward, td.forward { display: none; }
  col.c-select { width: 1.9rem; } col.c-time { width: 5.4rem; } col.c-verdict { width: 2rem; } col.c-status { width: 7rem; }
  td.verdict { font-size: 0; } td.verdict::before { font-size: 1rem; } th.c-verdict { font-size: 0; }
  #list th, #list td { padding: 0.3rem 0.25rem; } }
#rows tr { cursor: pointer; }
#rows tr:hover { background: var(--soft); }
#rows tr.current { background: var(--current); box-shadow: inset 3px 0 0 var(--accent); }
.valid { color: var(--ok); } .invalid { color: var(--bad); font-weight: 600; }
td.verdict::before { content: "\\2713\\00a0"; } td.verdict.invalid::before { content: "\\2717\\00a0"; }
td.forward.failed { color: var(--bad); }
.flag { font-size: 0.75rem; border: 1px solid currentColor; border-radius: 3px; padding: 0 0.2rem; margin-right: 0.3rem; color: var(--warn); }
button.open { background: none; border: 0; border-radius: 0; padding: 0; color: inherit; text-decoration: underline; text-decoration-color: var(--muted);
  max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; vertical-align: bottom; }
/* The end of a long name is what tells deliveries apart (…status_changed): cut at the start, text kept in order. */
button.open, .tail { direction: rtl; text-align: left; }
button.open > span, .tail > span { direction: ltr; unicode-bidi: isolate; }
td.select { text-overflow: clip; padding-right: 0; }
select { max-width: 9.5rem; }
#editor > label { display: block; margin: 0.8rem 0 0.3rem; font-weight: 600; }
#headers td:first-child { font-family: ui-monospace, monospace; font-size: 0.85rem; }
#headers td { font-family: ui-monospace, monospace; font-size: 0.85rem; }
col.c-name { width: 40%; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem; max-height: 24rem; overflow: auto; font-size: 0.85rem; }
code, kbd { font-family: ui-monospace, monospace; font-size: 0.85rem; }
kbd { border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 0.3rem; background: var(--soft); }
.esc { color: var(--warn); }
.add { color: var(--ok); display: block; } .del { color: var(--bad); display: block; } .same { display: block; opacity: 0.75; }
textarea { width: 100%; font-family: ui-monospace, monospace; font-size: 0.85rem; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0.5rem 0; }
fieldset label { display: block; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.actions { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; margin: 0.5rem 0; }
.empty { padding: 1.5rem 0.5rem; color: var(--muted); max-width: 40rem; }
.empty-title { font-size: 1.05rem; font-weight: 600; color: var(--fg); }
#empty pre { color: var(--fg); }
dialog { background: var(--bg); color: var(--fg); border: 1px solid var(--line); border-radius: 8px; max-width: min(28rem, 92vw); }
dialog::backdrop { background: #0008; }
dl.keys { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 1rem; }
dl.keys dd { margin: 0; }
@media (max-width: 900px) {
  #panes { grid-template-columns: minmax(0, 1fr); min-height: 0; }
  #splitter { display: none; }
  #list-pane { padding: 0 0.5rem; }
  #detail-pane { border-left: 0; border-top: 1px solid var(--line); padding: 0 0.5rem 1rem; }
  .bar { padding: 0.5rem; }
}
@media (max-width: 600px) {
  input[type=search] { width: 100%; }
  .search { flex: 1 1 100%; }
  .grow { display: none; }
}
`;
