// A plan fixes its requests and their Idempotency-Keys (plan.ts), seals every line
// (plan-seal.ts), and the runner sends its rows in those requests under those keys, and the
// retries of transiently failed items under keys made from them (runner.ts, planKey), so two
// applies of one plan anywhere send the same rows under the same keys; the ledger of applied
// plans (plan-ledger.ts) says which applies covered a plan. Issue #42.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MergedRow } from '../../src/bulk/changes/merge.js';
import { PlanWriter, plannedRows, readPlanHeader, requestOf, verifyPlan, type PlanMaking } from '../../src/bulk/plan/plan.js';
import { appliedBefore, appliedLine, readLedger, recordApplied, type LedgerEntry } from '../../src/bulk/runs/plan-ledger.js';
import { planKey, planKeyRound, runBulk, type Batch } from '../../src/bulk/runner.js';
import type { ResultRow } from '../../src/bulk/results.js';
import type { PlannedRow } from '../../src/bulk/pipeline.js';
import { tempDir } from '../helpers/temp.js';

const making = (batchSize: number): PlanMaking => ({
  id: 'plan-1',
  resource: 'ad_groups',
  mode: 'create',
  scope: { account: 'acc' },
  target: { origin: 'http://127.0.0.1:4010', account: 'acc', profile: 'local' },
  created: '2026-01-01T00:00:00.000Z',
  batch_size: batchSize,
});

/** A create row of campaign `campaign` (as a dry run passes it to the plan). */
const createRow = (line: number, campaign: string): MergedRow => ({
  line,
  item: { name: `g${line}`, budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: String(line * 100000), currency_code: 'USD' } } },
  campaignId: campaign,
  key: `k${line}`,
  hash: `h${line}`,
});

async function* once<T>(items: T[]): AsyncGenerator<T[]> {
  yield items;
}

async function writePlan(rows: MergedRow[], batchSize = 2): Promise<string> {
  const file = path.join(tempDir('platform-plan-keys-'), 'plan.ndjson');
  const writer = PlanWriter.open(file, making(batchSize), 'ad_group_id');
  for await (const chunk of writer.rows(once(rows))) void chunk;
  await writer.commit();
  return file;
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('a plan fixes its requests and keys', () => {
  it('puts rows in requests per campaign of at most batch_size, each under a key; a second read gives the same rows, rebuilt from write', async () => {
    const rows = [createRow(2, 'A'), createRow(3, 'B'), createRow(4, 'A'), createRow(5, 'A'), createRow(6, 'B')];
    const file = await writePlan(rows);
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: 'plan', version: 2, id: 'plan-1', batch_size: 2, rows: 5, rows_sha256: lines[5]!.sha256 });
    const keys = lines.slice(1).map((l) => l.key as string);
    // A: lines 2 and 4, then 5; B: lines 3 and 6.
    expect([keys[0] === keys[2], keys[1] === keys[4], new Set(keys).size]).toEqual([true, true, 3]);
    const plan = await verifyPlan(file, 'ad_group_id');
    expect([...plan.batches.values()]).toEqual([2, 2, 1]);
    expect(plan.sha256).toMatch(/^[0-9a-f]{64}$/);
    const planned: PlannedRow[] = await all(plannedRows(plan, 'ad_group_id'));
    expect(planned.map((r) => [r.line, r.campaignId, r.batch])).toEqual([
      [2, 'A', { key: keys[0], at: 0 }],
      [3, 'B', { key: keys[1], at: 0 }],
      [4, 'A', { key: keys[0], at: 1 }],
      [5, 'A', { key: keys[3], at: 0 }],
      [6, 'B', { key: keys[1], at: 1 }],
    ]);
    expect(planned.map((r) => r.request)).toEqual(rows.map((r) => ('item' in r ? r.item : undefined)));
  });

  it('a request rebuilt from its write and id: dotted leaves nest, {} clears, arrays stay whole', () => {
    expect(
      requestOf({ name: 'n', 'budget.total.amount_e5': '1', 'budget.unit': 'U', targeting: {}, 'ad_subjects.stores.store_ids': ['s'] }, 'id1', 'ad_group_id'),
    ).toEqual({
      ad_group_id: 'id1',
      name: 'n',
      budget: { total: { amount_e5: '1' }, unit: 'U' },
      targeting: {},
      ad_subjects: { stores: { store_ids: ['s'] } },
    });
  });

  it('names the first line that changed: an edit, a row moved or removed, rows added, the header; a version 1 plan is refused', async () => {
    const file = await writePlan([createRow(2, 'A'), createRow(3, 'A'), createRow(4, 'A')]);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    const variant = async (name: string, text: string[]) => {
      const other = path.join(path.dirname(file), name);
      fs.writeFileSync(other, `${text.join('\n')}\n`);
      return verifyPlan(other, 'ad_group_id').then(
        () => 'accepted',
        (error: Error) => error.message.replace(`${other}: `, ''),
      );
    };
    const [header, a, b, c] = lines as [string, string, string, string];
    const made = ' changed since the plan was made (its sha256 does not match); nothing was sent: make the plan again';
    expect(await variant('edit.ndjson', [header, a, b.replace('"g3"', '"g9"'), c])).toBe(`line 3${made}`);
    expect(await variant('moved.ndjson', [header, b, a, c])).toBe(`line 2${made}`);
    expect(await variant('removed.ndjson', [header, a, c])).toBe(`line 3${made}`);
    expect(await variant('last-removed.ndjson', [header, a, b])).toBe(
      "ends at line 3 with 2 of the plan's 3 rows: rows were removed; nothing was sent: make the plan again",
    );
    expect(await variant('added.ndjson', [header, a, b, c, c])).toBe(`line 5${made}`);
    expect(await variant('header.ndjson', [header.replace('"batch_size":2', '"batch_size":3'), a, b, c])).toBe(`line 1 (the header)${made}`);
    expect(await variant('whole.ndjson', lines)).toBe('accepted');
    const old = path.join(path.dirname(file), 'old.ndjson');
    fs.writeFileSync(old, '{"type":"plan","version":1,"resource":"campaigns","mode":"create","scope":{"account":"a"},"created":"x"}\n');
    await expect(readPlanHeader(old)).rejects.toThrow(
      /is a plan of version 1, made before plans named their target and fixed their idempotency keys; nothing was sent: make it again/,
    );
  });
});

/** A server that answers every item ok with an id, and keeps the answers of keys, as the sandbox does. */
function keepingServer(fail: (batch: Batch, nth: number) => boolean[] = () => []) {
  const kept = new Map<string, { items: string; answer: unknown[] }>();
  const sent: Array<{ key: string; items: string[]; replayed: boolean }> = [];
  let created = 0;
  const send = (batch: Batch): Promise<never[]> => {
    const items = JSON.stringify(batch.items);
    const previous = kept.get(batch.idempotencyKey);
    if (previous) {
      expect(previous.items).toBe(items);
      sent.push({ key: batch.idempotencyKey, items: batch.items.map((i) => String(i.name)), replayed: true });
      batch.replayed?.();
      return Promise.resolve(previous.answer as never[]);
    }
    const failing = fail(batch, sent.length);
    sent.push({ key: batch.idempotencyKey, items: batch.items.map((i) => String(i.name)), replayed: false });
    const answer = batch.items.map((_, i) =>
      failing[i] ? { failure: { error_code: 'Unavailable', error_message: 'try again' } } : { success: { id: `id-${++created}` } },
    );
    kept.set(batch.idempotencyKey, { items, answer });
    return Promise.resolve(answer as never[]);
  };
  return { send, sent, kept, created: () => created };
}

const plannedRow = (line: number, key: string, at: number): MergedRow => ({
  line,
  item: { name: `n${line}` },
  campaignId: 'C',
  key: `r${line}`,
  hash: `h${line}`,
  batch: { key, at },
});

function run(rows: MergedRow[], send: (batch: Batch) => Promise<never[]>, extra: Record<string, unknown> = {}): Promise<ResultRow[]> {
  return all(
    runBulk({
      rows: once(rows),
      batchSize: 500,
      concurrency: 1,
      send,
      idField: 'campaign_id',
      signal: new AbortController().signal,
      planBatches: new Map([
        ['K1', 3],
        ['K2', 1],
      ]),
      ...extra,
    }),
  );
}

describe("the runner sends a plan's requests under its keys", () => {
  const rows = () => [plannedRow(2, 'K1', 0), plannedRow(3, 'K2', 0), plannedRow(4, 'K1', 1), plannedRow(5, 'K1', 2)];

  it('each request whole under its key, in the plan order of its rows; a second apply gets the answers kept for them', async () => {
    const server = keepingServer();
    const first = await run(rows(), server.send);
    expect(server.sent).toEqual([
      { key: 'K2', items: ['n3'], replayed: false },
      { key: 'K1', items: ['n2', 'n4', 'n5'], replayed: false },
    ]);
    const second = await run(rows(), server.send);
    expect(second).toEqual(first);
    expect(server.sent.slice(2).map((s) => [s.key, s.replayed])).toEqual([
      ['K2', true],
      ['K1', true],
    ]);
    expect(server.created()).toBe(4);
  });

  it('some rows of a request (the others unchanged): a key made from the plan key and their places, the same at every apply', async () => {
    const server = keepingServer();
    const some = () => [
      plannedRow(2, 'K1', 0),
      { line: 4, unchanged: true as const, id: 'x', key: 'r4', hash: 'h4', batch: { key: 'K1', at: 1 } },
      plannedRow(5, 'K1', 2),
    ];
    await run(some(), server.send);
    await run(some(), server.send);
    const key = planKey('K1', 3, 0, [0, 2]);
    expect(key).toMatch(/^K1~0~[0-9a-f]{12}$/);
    expect(server.sent).toEqual([
      { key, items: ['n2', 'n5'], replayed: false },
      { key, items: ['n2', 'n5'], replayed: true },
    ]);
    expect(planKeyRound(key)).toEqual({ key: 'K1', round: 0 });
    expect(planKey('K1', 3, 0, [0, 1, 2])).toBe('K1');
  });

  it("items that failed transiently are resent under the next round's key; another apply replays the rounds (not counted as attempts) and creates nothing twice", async () => {
    // The first apply: n4 fails transiently four times (every attempt it gets), then the server recovers.
    const server = keepingServer((batch, nth) => batch.items.map((item) => item.name === 'n4' && nth < 5));
    const first = await run(rows(), server.send, { pause: () => Promise.resolve() });
    expect(first.map((r) => [r.line, r.result, r.error_code])).toEqual([
      [2, 'ok', ''],
      [3, 'ok', ''],
      [4, 'failed', 'Unavailable'],
      [5, 'ok', ''],
    ]);
    const rounds = [1, 2, 3].map((round) => planKey('K1', 3, round, [1]));
    expect(server.sent.map((s) => s.key)).toEqual(['K2', 'K1', ...rounds]);
    // Another apply (another machine): every answer kept is replayed, then round 4 is new, and n4 is created once.
    const second = await run(rows(), server.send, { pause: () => Promise.resolve() });
    expect(second.map((r) => r.result)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(server.sent.slice(5).map((s) => [s.key, s.replayed])).toEqual([
      ['K2', true],
      ['K1', true],
      ...rounds.map((key) => [key, true]),
      [planKey('K1', 3, 4, [1]), false],
    ]);
    expect(second.map((r) => r.id).filter((id, i) => i !== 2)).toEqual(first.map((r) => r.id).filter((id, i) => i !== 2));
    expect(server.created()).toBe(4);
    // A resume of the first apply's run goes on after the last round its journal sent: the same key as the second apply's round 4.
    const resumed = keepingServer();
    await run([plannedRow(4, 'K1', 1)], resumed.send, {
      resumeFrom: { done: new Map(), keys: new Set(['K2', 'K1', ...rounds]) },
      planBatches: new Map([['K1', 3]]),
    });
    expect(resumed.sent.map((s) => s.key)).toEqual([planKey('K1', 3, 4, [1])]);
  });
});

describe('the ledger of applied plans', () => {
  const entry = (rest: Partial<LedgerEntry> = {}): LedgerEntry => ({
    sha256: 'a'.repeat(64),
    plan: 'P',
    file: '/plans/p.ndjson',
    applied: '2026-01-01T00:00:00.000Z',
    run: '2026-01-01T00-00-00-000Z-create-campaigns-abcdef12',
    profile: 'local',
    origin: 'http://o',
    account: 'acc',
    ...rest,
  });
  const query = { sha256: 'a'.repeat(64), plan: 'P', origin: 'http://o', account: 'acc' };

  it('finds an apply of the plan (by hash or id) at the same origin and account, of the whole plan or this shard, or every shard of one count', () => {
    expect(appliedBefore([entry()], query)).toEqual(entry());
    expect(appliedBefore([entry({ sha256: 'b'.repeat(64) })], query)).toBeDefined();
    expect(appliedBefore([entry({ plan: 'Q', sha256: 'b'.repeat(64) })], query)).toBeUndefined();
    expect(appliedBefore([entry({ origin: 'http://other' })], query)).toBeUndefined();
    expect(appliedBefore([entry({ account: 'other' })], query)).toBeUndefined();
    expect(appliedBefore([entry()], { ...query, shard: '1/2' })).toBeDefined();
    const zero = entry({ shard: '0/2', applied: '2026-01-01T00:00:00.000Z' });
    const one = entry({ shard: '1/2', applied: '2026-01-02T00:00:00.000Z' });
    expect(appliedBefore([zero], { ...query, shard: '1/2' })).toBeUndefined();
    expect(appliedBefore([zero], query)).toBeUndefined();
    expect(appliedBefore([zero, one], query)).toBe(one);
    expect(appliedBefore([zero, entry({ shard: '1/3' })], query)).toBeUndefined();
  });

  it('is appended to (0600) and read back, skipping a line cut short; its refusal names when and which run', () => {
    const dir = path.join(tempDir('platform-ledger-'), 'plans');
    recordApplied(dir, entry());
    fs.appendFileSync(path.join(dir, 'applied.ndjson'), '{"sha256":"cut');
    recordApplied(dir, entry({ plan: 'Q' }));
    expect(fs.statSync(path.join(dir, 'applied.ndjson')).mode & 0o777).toBe(0o600);
    expect(readLedger(dir).map((e) => e.plan)).toEqual(['P', 'Q']);
    expect(appliedLine('p.ndjson', entry(), 'undo-run-12345678')).toBe(
      `p.ndjson (sha256:${'a'.repeat(12)}…) was applied on 2026-01-01T00:00:00.000Z by run abcdef12 (profile local), which run 12345678 undid; ` +
        'a plan is applied once: to apply its changes again, add --again (a new plan with new idempotency keys)',
    );
  });
});
