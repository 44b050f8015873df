// The inbox page: static HTML, one script and one style sheet, served by server.ts under a
// CSP that allows nothing inline and nothing from another origin. No framework and no build
// step. Every byte of a delivery reaches the document through textContent only (no
// innerHTML anywhere), so a body holding <script> shows as text. The session token the API
// asks for is the one thing the HTML carries, in a meta tag the script reads.

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
<header>
  <h1>Webhook inbox</h1>
  <p id="where">Connecting…</p>
  <p id="live" role="status" aria-live="polite">connecting</p>
</header>
<section id="toolbar" aria-label="Filters and export">
  <label>Event type <select id="filter-type"><option value="">all</option></select></label>
  <label>Status <select id="filter-status"><option value="">all</option></select></label>
  <label>Verdict <select id="filter-verdict"><option value="">all</option><option value="valid">valid</option><option value="invalid">invalid</option></select></label>
  <label><input type="checkbox" id="select-all"> select all shown</label>
  <button type="button" id="export-ndjson">Export NDJSON</button>
  <button type="button" id="export-har">Export HAR</button>
  <span id="count" aria-live="polite"></span>
</section>
<main>
  <section id="list-pane" aria-label="Deliveries">
    <table id="list">
      <thead><tr><th scope="col"><span class="visually-hidden">Selected</span></th><th scope="col">Received</th><th scope="col">Verdict</th><th scope="col">Event type</th><th scope="col">Status</th><th scope="col">Resource</th><th scope="col">Event</th><th scope="col">Forward</th></tr></thead>
      <tbody id="rows"></tbody>
    </table>
    <p id="empty">No deliveries yet. Point the sender at the listener; they appear here as they arrive.</p>
  </section>
  <section id="detail" aria-label="Delivery" hidden>
    <h2 id="detail-title" tabindex="-1"></h2>
    <p id="detail-verdict"></p>
    <ul id="detail-notes"></ul>
    <p id="detail-meta"></p>
    <div class="actions">
      <button type="button" id="replay">Replay to the forward target</button>
      <button type="button" id="edit">Edit and replay…</button>
      <span id="target"></span>
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
        <button type="button" id="send-edit">Send</button>
        <button type="button" id="cancel-edit">Cancel</button>
      </div>
    </section>
    <p id="action-result" role="status" aria-live="polite"></p>
    <h3>Sends</h3>
    <ol id="sends"></ol>
    <h3>Headers</h3>
    <table id="headers"><thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead><tbody></tbody></table>
    <h3>Body, raw <span id="body-size"></span></h3>
    <pre id="body-raw"></pre>
    <h3>Body, pretty</h3>
    <pre id="body-pretty"></pre>
  </section>
</main>
</body>
</html>
`;
}

export const INBOX_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; font-size: 15px; }
body { margin: 0; }
header, #toolbar { padding: 0.5rem 1rem; display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; border-bottom: 1px solid #8884; }
h1 { font-size: 1.2rem; margin: 0; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; padding: 0 1rem 1rem; }
@media (max-width: 900px) { main { grid-template-columns: 1fr; } }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.2rem 0.4rem; border-bottom: 1px solid #8883; vertical-align: top; overflow-wrap: anywhere; }
tr.current { background: #4a90e233; }
.valid { color: #1a7f37; } .invalid { color: #cf222e; font-weight: bold; }
.flag { font-size: 0.8rem; border: 1px solid currentColor; border-radius: 3px; padding: 0 0.2rem; margin-left: 0.2rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #8881; padding: 0.5rem; max-height: 24rem; overflow: auto; }
.esc { color: #9a6700; }
.add { color: #1a7f37; display: block; } .del { color: #cf222e; display: block; } .same { display: block; opacity: 0.7; }
textarea { width: 100%; font-family: ui-monospace, monospace; box-sizing: border-box; }
button.open { font-family: ui-monospace, monospace; background: none; border: 0; padding: 0; color: inherit; text-decoration: underline; cursor: pointer; }
:focus-visible { outline: 3px solid #4a90e2; outline-offset: 2px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.actions { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; margin: 0.5rem 0; }
`;

// Plain ES2020, no template literals (this module is one), no innerHTML.
export const INBOX_JS = String.raw`
'use strict';
(function () {
  var token = document.querySelector('meta[name="inbox-token"]').getAttribute('content');
  var records = new Map();
  var order = [];
  var selected = new Set();
  var routes = [];
  var current = null;
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function bytesOf(b64) {
    var bin = atob(b64);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function textOf(b64) {
    var bytes = bytesOf(b64);
    try { return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), utf8: true, size: bytes.length }; }
    catch (e) { return { text: new TextDecoder('utf-8').decode(bytes), utf8: false, size: bytes.length }; }
  }
  function hex2(n) { return (n < 16 ? '0' : '') + n.toString(16).toUpperCase(); }

  // The raw body: printable text as it is; control characters and bytes that are not UTF-8
  // as visible \xNN escapes in their own colour, so nothing sent is hidden.
  function renderRaw(node, b64) {
    clear(node);
    var bytes = bytesOf(b64);
    var decoded = textOf(b64);
    if (!decoded.utf8) {
      var run = '';
      for (var i = 0; i < bytes.length; i++) {
        var c = bytes[i];
        if ((c >= 0x20 && c < 0x7f) || c === 10 || c === 9) { run += String.fromCharCode(c); continue; }
        if (run) { node.appendChild(document.createTextNode(run)); run = ''; }
        node.appendChild(el('span', '\\x' + hex2(c), 'esc'));
      }
      if (run) node.appendChild(document.createTextNode(run));
      return;
    }
    var text = decoded.text;
    var start = 0;
    for (var j = 0; j < text.length; j++) {
      var code = text.charCodeAt(j);
      if ((code < 0x20 && code !== 10 && code !== 9) || code === 0x7f || code === 0xfeff) {
        if (j > start) node.appendChild(document.createTextNode(text.slice(start, j)));
        node.appendChild(el('span', code === 0xfeff ? '\\uFEFF' : '\\x' + hex2(code), 'esc'));
        start = j + 1;
      }
    }
    if (start < text.length) node.appendChild(document.createTextNode(text.slice(start)));
  }

  function pretty(text) {
    try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return null; }
  }

  // A line diff (longest common subsequence); JSON on both sides is compared pretty-printed.
  function diffLines(a, b) {
    var pa = pretty(a), pb = pretty(b);
    if (pa !== null && pb !== null) { a = pa; b = pb; }
    var x = a.split('\n'), y = b.split('\n');
    var n = x.length, m = y.length;
    var dp = [];
    for (var i = 0; i <= n; i++) { dp.push(new Array(m + 1).fill(0)); }
    for (i = n - 1; i >= 0; i--) for (var j = m - 1; j >= 0; j--) dp[i][j] = x[i] === y[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
    var out = [];
    i = 0; j = 0;
    while (i < n && j < m) {
      if (x[i] === y[j]) { out.push([' ', x[i]]); i++; j++; }
      else if (dp[i + 1][j] >= dp[i][j + 1]) { out.push(['-', x[i]]); i++; }
      else { out.push(['+', y[j]]); j++; }
    }
    while (i < n) out.push(['-', x[i++]]);
    while (j < m) out.push(['+', y[j++]]);
    return out;
  }

  function verdictText(r) { return r.verdict.valid ? 'valid' : 'invalid'; }
  function sendText(s) {
    var answer = s.result.status !== undefined ? 'HTTP ' + s.result.status : s.result.error;
    return answer;
  }
  function lastForward(r) { return r.sends.length ? r.sends[r.sends.length - 1] : null; }

  function shown(r) {
    var t = $('filter-type').value, s = $('filter-status').value, v = $('filter-verdict').value;
    return (!t || r.event_type === t) && (!s || r.status === s) && (!v || verdictText(r) === v);
  }

  function addOption(select, value) {
    if (!value) return;
    for (var i = 0; i < select.options.length; i++) if (select.options[i].value === value) return;
    var o = el('option', value); o.value = value; select.appendChild(o);
  }

  function row(r) {
    var tr = el('tr');
    tr.dataset.id = r.id;
    if (current === r.id) tr.className = 'current';
    var box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = selected.has(r.id);
    box.setAttribute('aria-label', 'select ' + (r.event_id || r.id));
    box.addEventListener('change', function () { if (box.checked) selected.add(r.id); else selected.delete(r.id); });
    var c0 = el('td'); c0.appendChild(box); tr.appendChild(c0);
    tr.appendChild(el('td', r.received_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')));
    tr.appendChild(el('td', verdictText(r) + (r.auth ? ', ' + (r.auth.authorized ? 'authorized' : 'unauthorized') : ''), r.verdict.valid && !(r.auth && !r.auth.authorized) ? 'valid verdict' : 'invalid verdict'));
    tr.appendChild(el('td', r.event_type || '-', 'type'));
    tr.appendChild(el('td', r.status || '-', 'status'));
    tr.appendChild(el('td', r.resource_id || '-'));
    var c6 = el('td');
    var open = el('button', r.event_id || '(no event_id)', 'open');
    open.type = 'button';
    open.setAttribute('aria-label', 'open delivery ' + (r.event_id || r.id));
    open.addEventListener('click', function () { openDelivery(r.id, true); });
    c6.appendChild(open);
    if (r.catch_up) c6.appendChild(el('span', 'catch-up', 'flag catch-up'));
    if (r.duplicate) c6.appendChild(el('span', 'duplicate', 'flag'));
    if (r.out_of_order) c6.appendChild(el('span', 'out of order', 'flag'));
    tr.appendChild(c6);
    var f = lastForward(r);
    tr.appendChild(el('td', f ? f.kind + ' ' + sendText(f) : r.target ? 'queued' : '-', 'forward'));
    return tr;
  }

  function renderList() {
    var body = $('rows');
    clear(body);
    var n = 0;
    for (var i = order.length - 1; i >= 0; i--) {
      var r = records.get(order[i]);
      addOption($('filter-type'), r.event_type);
      addOption($('filter-status'), r.status);
      if (!shown(r)) continue;
      body.appendChild(row(r));
      n++;
    }
    $('empty').hidden = order.length > 0;
    $('count').textContent = n + ' shown of ' + order.length;
  }

  function targetOf(type) {
    var any = null;
    for (var i = 0; i < routes.length; i++) { if (routes[i][0] === type) return routes[i][1]; if (routes[i][0] === '*') any = routes[i][1]; }
    return any;
  }

  function openDelivery(id, focus) {
    var r = records.get(id);
    if (!r) return;
    if (current !== id) { $('editor').hidden = true; $('action-result').textContent = ''; }
    current = id;
    $('detail').hidden = false;
    $('detail-title').textContent = (r.event_type || 'delivery') + ' ' + (r.event_id || r.id);
    var v = $('detail-verdict');
    v.textContent = r.verdict.message;
    v.className = r.verdict.valid ? 'valid' : 'invalid';
    var notes = $('detail-notes'); clear(notes);
    r.verdict.notes.forEach(function (n) { notes.appendChild(el('li', n)); });
    if (r.verdict.diagnosis) notes.appendChild(el('li', 'diagnosis: ' + r.verdict.diagnosis));
    if (r.auth) notes.appendChild(el('li', r.auth.authorized ? 'authorized (its credentials passed)' : 'unauthorized: ' + r.auth.reason + ' (answered 401, not forwarded)'));
    var flags = [r.method + ' ' + r.path, 'received ' + r.received_at];
    if (r.catch_up) flags.push('catch-up (replayed from a delivery log on start)');
    if (r.duplicate) flags.push('duplicate (ignored)');
    if (r.out_of_order) flags.push('out of order');
    $('detail-meta').textContent = flags.join(' · ');
    var target = targetOf(r.event_type);
    $('target').textContent = target ? 'to ' + target : 'no forward target: start listen with --forward-to or --route';
    $('replay').disabled = !target;
    $('edit').disabled = !target;
    var hb = $('headers').tBodies[0]; clear(hb);
    r.headers.forEach(function (h) { var tr = el('tr'); tr.appendChild(el('td', h[0])); tr.appendChild(el('td', h[1])); hb.appendChild(tr); });
    var decoded = textOf(r.body_base64);
    $('body-size').textContent = '(' + decoded.size + ' bytes' + (decoded.utf8 ? '' : ', not UTF-8') + ')';
    renderRaw($('body-raw'), r.body_base64);
    var p = pretty(decoded.text);
    $('body-pretty').textContent = p === null ? '(not JSON)' : p;
    var sends = $('sends'); clear(sends);
    r.sends.forEach(function (s) {
      var li = el('li', s.at + ' ' + s.kind + ' (' + s.signing + ') to ' + s.url + ': ' + sendText(s) + ' in ' + Math.round(s.ms) + ' ms');
      li.className = 'send';
      sends.appendChild(li);
    });
    if (!r.sends.length) sends.appendChild(el('li', r.target ? 'forward queued' : 'not forwarded'));
    var rows = $('rows').children;
    for (var i = 0; i < rows.length; i++) rows[i].className = rows[i].dataset.id === id ? 'current' : '';
    if (focus) $('detail-title').focus();
  }

  function updateDiff() {
    var r = records.get(current);
    if (!r) return;
    var diff = $('diff'); clear(diff);
    var lines = diffLines(textOf(r.body_base64).text, $('edit-body').value);
    var changed = lines.some(function (l) { return l[0] !== ' '; });
    if (!changed) { diff.appendChild(el('span', '(no change)', 'same')); return; }
    lines.forEach(function (l) { diff.appendChild(el('span', l[0] + ' ' + l[1], l[0] === '+' ? 'add' : l[0] === '-' ? 'del' : 'same')); });
  }

  function api(path, body) {
    return fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Inbox-Token': token },
      body: JSON.stringify(body || {}),
      credentials: 'same-origin',
    }).then(function (res) {
      return res.json().then(function (json) {
        if (!res.ok) throw new Error(json.error || ('HTTP ' + res.status));
        return json;
      });
    });
  }

  function reportSend(send) {
    $('action-result').textContent = send.kind + ' (' + send.signing + ') to ' + send.url + ': ' + sendText(send);
  }
  function reportError(e) { $('action-result').textContent = 'failed: ' + e.message; }

  function upsert(r, isNew) {
    if (!records.has(r.id)) order.push(r.id);
    records.set(r.id, r);
    renderList();
    if (current === r.id) openDelivery(r.id, false);
    if (isNew) $('live').textContent = 'live: ' + order.length + ' deliveries';
  }

  function exportAs(format) {
    var ids = [];
    order.forEach(function (id) { if (selected.has(id) && shown(records.get(id))) ids.push(id); });
    if (!ids.length) order.forEach(function (id) { if (shown(records.get(id))) ids.push(id); });
    var a = document.createElement('a');
    a.href = '/api/export?format=' + format + '&ids=' + encodeURIComponent(ids.join(',')) + '&token=' + encodeURIComponent(token);
    a.download = 'deliveries.' + format;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  function connect() {
    var source = new EventSource('/api/events?token=' + encodeURIComponent(token));
    source.addEventListener('open', function () { $('live').textContent = 'live: ' + order.length + ' deliveries'; });
    source.addEventListener('delivery', function (e) { upsert(JSON.parse(e.data), true); });
    source.addEventListener('update', function (e) { upsert(JSON.parse(e.data), false); });
    source.addEventListener('error', function () {
      $('live').textContent = source.readyState === EventSource.CLOSED ? 'disconnected: reload the page once listen runs again' : 'reconnecting…';
    });
  }

  function start() {
    fetch('/api/deliveries', { headers: { 'X-Inbox-Token': token } })
      .then(function (res) { if (!res.ok) throw new Error('HTTP ' + res.status); return res.json(); })
      .then(function (data) {
        routes = data.routes;
        var where = 'Listening on ' + data.listen_url;
        where += routes.length ? '; forwarding ' + routes.map(function (r) { return r[0] + ' to ' + r[1]; }).join(', ') : '; not forwarding';
        $('where').textContent = where;
        data.deliveries.forEach(function (r) { if (!records.has(r.id)) order.push(r.id); records.set(r.id, r); });
        renderList();
        connect();
      })
      .catch(function (e) { $('live').textContent = 'could not load the inbox: ' + e.message; });

    ['filter-type', 'filter-status', 'filter-verdict'].forEach(function (id) { $(id).addEventListener('change', renderList); });
    $('select-all').addEventListener('change', function () {
      var on = $('select-all').checked;
      order.forEach(function (id) { if (shown(records.get(id))) { if (on) selected.add(id); else selected.delete(id); } });
      renderList();
    });
    $('export-ndjson').addEventListener('click', function () { exportAs('ndjson'); });
    $('export-har').addEventListener('click', function () { exportAs('har'); });
    $('replay').addEventListener('click', function () {
      $('action-result').textContent = 'replaying…';
      api('/api/deliveries/' + encodeURIComponent(current) + '/replay').then(reportSend, reportError);
    });
    $('edit').addEventListener('click', function () {
      var r = records.get(current);
      $('edit-body').value = textOf(r.body_base64).text;
      $('editor').hidden = false;
      updateDiff();
      $('edit-body').focus();
    });
    $('edit-body').addEventListener('input', updateDiff);
    $('cancel-edit').addEventListener('click', function () { $('editor').hidden = true; $('edit').focus(); });
    $('editor').addEventListener('keydown', function (e) { if (e.key === 'Escape') { $('editor').hidden = true; $('edit').focus(); } });
    $('send-edit').addEventListener('click', function () {
      var signing = document.querySelector('input[name="signing"]:checked').value;
      $('action-result').textContent = 'sending…';
      api('/api/deliveries/' + encodeURIComponent(current) + '/edit', { body: $('edit-body').value, signing: signing }).then(reportSend, reportError);
    });
  }

  start();
})();
`;
