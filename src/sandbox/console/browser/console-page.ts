// The console page's script (bundled by esbuild for the browser: ../../../base/page-script.ts).
// It reads the overview (the server's ConsoleOverview) every few seconds and when the state is
// replaced, and follows the request log over server-sent events.
import type { RequestLogEntry } from '../../context.js';
import type { ConsoleOverview } from '../routes.js';
import type { SnapshotInfo, Timed } from '../snapshots.js';
import { snapshotNameProblem } from '../snapshot-name.js';
import { byId, el, isPageKey } from '../../../webhooks/inbox/browser/dom.js';
import { statusLabel } from '../../../webhooks/inbox/browser/labels.js';
import { labelled, text, tr } from './cells.js';
import { requestLog } from './log.js';
import { campaignStatusLabel, visible } from './text.js';

const token = document.querySelector('meta[name="sandbox-token"]')?.getAttribute('content') ?? '';

const ui = {
  chaos: byId('chaos', HTMLElement),
  status: byId('status', HTMLElement),
  name: byId('snapshot-name', HTMLInputElement),
  nameError: byId('name-error', HTMLElement),
  snapshots: byId('snapshots', HTMLTableElement),
  accounts: byId('accounts', HTMLTableElement),
  account: byId('account', HTMLSelectElement),
  campaignCount: byId('campaign-count', HTMLElement),
  campaigns: byId('campaigns', HTMLTableElement),
  rides: byId('rides', HTMLTableElement),
  webhookSettings: byId('webhook-settings', HTMLTableElement),
  webhooks: byId('webhooks', HTMLTableElement),
  log: byId('log', HTMLTableElement),
  logFilter: byId('log-filter', HTMLInputElement),
  faultsOnly: byId('faults-only', HTMLInputElement),
  confirm: byId('confirm', HTMLDialogElement),
  confirmTitle: byId('confirm-title', HTMLElement),
  confirmText: byId('confirm-text', HTMLElement),
  confirmOk: byId('confirm-ok', HTMLButtonElement),
  help: byId('help', HTMLDialogElement),
};

const body = (table: HTMLTableElement) => table.tBodies[0]!;

function fill(table: HTMLTableElement, rows: HTMLTableRowElement[], emptyId: string): void {
  body(table).replaceChildren(...rows);
  byId(emptyId, HTMLElement).hidden = rows.length > 0;
}

function say(message: string, error = false): void {
  ui.status.textContent = visible(message);
  ui.status.className = error ? 'status-error' : 'status-ok';
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

async function post<T>(path: string, payload: unknown = {}): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-sandbox-token': token },
    body: JSON.stringify(payload),
  });
  const data = (await res.json().catch(() => ({}))) as T & { message?: string };
  if (!res.ok) throw new Error(data.message ?? `HTTP ${res.status}`);
  return data;
}

let account = '';
let view: ConsoleOverview | undefined;

function campaignsNow(): string {
  const total = view?.accounts.reduce((n, a) => n + a.campaigns, 0) ?? 0;
  return `${total.toLocaleString('en-US')} campaign${total === 1 ? '' : 's'} in ${view?.accounts.length ?? 0} accounts`;
}

function renderSnapshots(snapshots: SnapshotInfo[]): void {
  const rows = snapshots.map((s) => {
    const button = el('button', 'Restore');
    button.type = 'button';
    button.setAttribute('aria-label', `Restore snapshot ${visible(s.name)}`);
    button.addEventListener('click', () => {
      const saved = new Date(s.saved_at)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');
      confirmThen(
        `Restore snapshot ${visible(s.name)}?`,
        `The current state (${campaignsNow()}, rides and webhook attempts) is replaced by the snapshot saved at ${saved} (${s.campaigns.toLocaleString('en-US')} campaigns). Every change since then is lost, unless saved as another snapshot first.`,
        'Restore',
        () => act(() => post<Timed>(`/_sandbox/snapshots/${encodeURIComponent(s.name)}/restore`), `Restored ${s.name}`),
      );
    });
    const action = el('td');
    action.appendChild(button);
    const size = s.bytes === undefined ? 'in memory' : `${s.bytes.toLocaleString('en-US')} B`;
    return tr([text(s.name), text(s.campaigns.toLocaleString('en-US'), 'num'), text(size, 'num'), action]);
  });
  fill(ui.snapshots, rows, 'snapshots-empty');
}

function renderAccounts(v: ConsoleOverview): void {
  fill(
    ui.accounts,
    v.accounts.map((a) =>
      tr([text(a.name), text(a.ad_account_id, 'mono'), text(a.currency_code), text(a.active ? 'yes' : 'no'), text(a.campaigns.toLocaleString('en-US'), 'num')]),
    ),
    'campaigns-empty',
  );
  if (ui.account.options.length !== v.accounts.length || !account) {
    ui.account.replaceChildren(
      ...v.accounts.map((a) => {
        const option = el('option', visible(a.name));
        option.value = a.ad_account_id;
        return option;
      }),
    );
  }
  account = v.campaigns.account;
  ui.account.value = account;
  const { total, items } = v.campaigns;
  ui.campaignCount.textContent = total > items.length ? `newest ${items.length} of ${total.toLocaleString('en-US')}` : `${total} campaigns`;
  fill(
    ui.campaigns,
    items.map((c) =>
      tr([text(c.name), text(c.campaign_id, 'mono'), labelled(campaignStatusLabel(c.configured_status), c.configured_status), text(c.objective || '-')]),
    ),
    'campaigns-empty',
  );
}

function render(v: ConsoleOverview): void {
  view = v;
  const c = v.chaos;
  const rules = c.rules.length ? c.rules.join('; ') : 'none';
  ui.chaos.textContent = visible(
    `Chaos seed ${c.seed} · fail ${c.failRate} · throttle ${c.throttleRate} · item fail ${c.itemFailRate} · --fault rules: ${rules}`,
  );
  renderAccounts(v);
  fill(
    ui.rides,
    v.rides.map((r) =>
      tr([text(r.request_id, 'mono'), labelled(statusLabel(String(r.status)), String(r.status)), text(r.user_id), text(r.client_id), text(r.product)]),
    ),
    'rides-empty',
  );
  body(ui.webhookSettings).replaceChildren(...v.webhookSettings.map((w) => tr([text(w.client_id), text(w.url), text(w.auth)])));
  fill(
    ui.webhooks,
    v.webhooks.map((w) =>
      tr([
        text(`${w.event_type} ${w.resource_id}`),
        labelled(statusLabel(w.status), w.status),
        text(w.url),
        text(`${w.attempt} of ${w.of}`),
        text(w.result),
        text(w.next || '-'),
      ]),
    ),
    'webhooks-empty',
  );
  renderSnapshots(v.snapshots);
}

async function refresh(): Promise<void> {
  render(await getJson<ConsoleOverview>(`/_sandbox/overview${account ? `?account=${encodeURIComponent(account)}` : ''}`));
}
const refreshSoon = () => void refresh().catch((e: unknown) => say(e instanceof Error ? e.message : String(e), true));

async function act(run: () => Promise<Timed>, done: string): Promise<void> {
  try {
    const result = await run();
    say(`${done} in ${Math.round(result.ms)} ms`);
    await refresh();
  } catch (e) {
    say(e instanceof Error ? e.message : String(e), true);
  }
}

/** A dialog naming what is lost; the action runs only on its confirming button. */
function confirmThen(title: string, message: string, verb: string, then: () => Promise<void>): void {
  ui.confirmTitle.textContent = title;
  ui.confirmText.textContent = message;
  ui.confirmOk.textContent = verb;
  ui.confirmOk.onclick = () => {
    ui.confirm.close();
    void then();
  };
  ui.confirm.showModal();
}

/** Our own message under the field, not the browser's "Please match the requested format". */
function checkName(): string | null {
  const problem = snapshotNameProblem(ui.name.value);
  ui.nameError.textContent = problem ?? '';
  ui.name.setAttribute('aria-invalid', problem ? 'true' : 'false');
  return problem;
}

const log = requestLog(ui.log, byId('log-empty', HTMLElement), ui.logFilter, ui.faultsOnly);

function onKey(e: KeyboardEvent): void {
  if (!isPageKey(e) || ui.help.open || ui.confirm.open) return;
  const current = log.current();
  const actions: Record<string, () => void> = {
    j: () => log.move(1),
    k: () => log.move(-1),
    '/': () => ui.logFilter.focus(),
    f: () => ui.faultsOnly.click(),
    '?': () => ui.help.showModal(),
    Enter: () =>
      current &&
      say(`#${current.cells[0]?.textContent ?? ''}: ${current.cells[6]?.textContent || 'no route'}; ${current.cells[7]?.textContent || 'no user agent'}`),
  };
  const action = actions[e.key];
  if (!action || (e.key === 'Enter' && e.target !== current)) return;
  e.preventDefault();
  action();
}

ui.name.addEventListener('input', checkName);
byId('save-form', HTMLFormElement).addEventListener('submit', (event) => {
  event.preventDefault();
  if (checkName()) return ui.name.focus();
  const name = ui.name.value;
  void act(() => post<Timed>('/_sandbox/snapshots', { name }), `Saved ${name}`);
});
byId('reset', HTMLButtonElement).addEventListener('click', () =>
  confirmThen(
    'Reset to the seeded data?',
    `The current state (${campaignsNow()}, rides and webhook attempts) goes back to the seeded demo data, and fault counts start again. Snapshots are kept; anything not saved in one is lost.`,
    'Reset',
    () => act(() => post<Timed>('/_sandbox/reset'), 'Reset to the seeded data'),
  ),
);
byId('confirm-cancel', HTMLButtonElement).addEventListener('click', () => ui.confirm.close());
byId('help-open', HTMLButtonElement).addEventListener('click', () => ui.help.showModal());
ui.account.addEventListener('change', () => {
  account = ui.account.value;
  refreshSoon();
});
ui.faultsOnly.addEventListener('change', log.refilter);
ui.logFilter.addEventListener('input', log.refilter);
ui.logFilter.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' || e.key === 'Enter') ui.logFilter.blur();
});
byId('clear-log', HTMLButtonElement).addEventListener('click', log.clear);
document.addEventListener('keydown', onKey);

const events = new EventSource('/_sandbox/events');
events.addEventListener('request', (event) => log.add(JSON.parse((event as MessageEvent<string>).data) as RequestLogEntry));
events.addEventListener('state', refreshSoon);
refreshSoon();
setInterval(refreshSoon, 2000);
