// A batch in flight when a run stopped (its sent record in the journal, no done record) is
// resent on --resume with its own Idempotency-Key, as the same request, even when its rows
// already read as applied: the server replays it (nothing is written twice), each row gets
// the replayed answer, and the journal closes the batch. Judged "unchanged" instead, the rows
// would not be sent, and the batch would stay in flight in the journal for good.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../../src/bulk/journal/journal.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, type TestUser } from '../../helpers/cli.js';
import type { Campaign, Result } from '../../helpers/ads-rows.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
});
afterAll(() => sandbox.close());

const parse = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Result);

describe('--resume of a batch that was in flight', () => {
  it('resends it with its key though its rows are applied: replayed, not written again, and done in the journal', async () => {
    const campaigns = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--limit', '4']);
    const ids = campaigns.map((c) => c.campaign_id);
    const dir = tempDir();
    const csv = path.join(dir, 'rename.csv');
    fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},In flight ${i}`).join('\n')}\n`);
    const journal = path.join(dir, 'rename.journal');
    const args = ['ads', 'campaigns', 'patch', '--account', account, '--from-csv', csv, '--batch-size', '2', '--concurrency', '1', '-o', 'ndjson'];
    const first = await user.run([...args, '--journal', journal]);
    expect(first.code, first.stderr).toBe(0);

    // The run stopped after the second batch was applied but before its answer was journaled.
    const records = fs.readFileSync(journal, 'utf8').trim().split('\n');
    const lastDone = records.findLastIndex((line) => line.startsWith('{"type":"done"'));
    const inFlightKey = (JSON.parse(records[lastDone]!) as { key: string }).key;
    fs.writeFileSync(journal, `${records.filter((_, i) => i !== lastDone).join('\n')}\n`);
    expect((await readJournal(journal)).inFlight.map((batch) => batch.key)).toEqual([inFlightKey]);
    const writes = ids.map((id) => sandbox.stats.writesById.get(id) ?? 0);

    const resumed = await user.run([...args, '--resume', journal]);

    expect(resumed.code, resumed.stderr).toBe(0);
    expect(parse(resumed.stdout).map((r) => [r.id, r.result, r.error_code])).toEqual([
      [ids[0], 'skipped', 'AlreadyApplied'],
      [ids[1], 'skipped', 'AlreadyApplied'],
      [ids[2], 'ok', ''],
      [ids[3], 'ok', ''],
    ]);
    // Replayed under its key: nothing written a second time.
    expect(ids.map((id) => sandbox.stats.writesById.get(id) ?? 0)).toEqual(writes);
    expect((await readJournal(journal)).inFlight).toEqual([]);
  });

  it('gives up a patch batch whose row was edited since: journaled as done, with no results, before anything is sent', async () => {
    const campaigns = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--limit', '4']);
    const ids = campaigns.map((c) => c.campaign_id);
    const dir = tempDir();
    const csv = path.join(dir, 'rename.csv');
    const write = (names: string[]) => fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},${names[i]}`).join('\n')}\n`);
    write(ids.map((_, i) => `Given up ${i}`));
    const journal = path.join(dir, 'rename.journal');
    const args = ['ads', 'campaigns', 'patch', '--account', account, '--from-csv', csv, '--batch-size', '2', '--concurrency', '1', '-o', 'ndjson'];
    expect((await user.run([...args, '--journal', journal])).code).toBe(0);
    const records = fs.readFileSync(journal, 'utf8').trim().split('\n');
    const lastDone = records.findLastIndex((line) => line.startsWith('{"type":"done"'));
    const givenUp = (JSON.parse(records[lastDone]!) as { key: string }).key;
    fs.writeFileSync(journal, `${records.filter((_, i) => i !== lastDone).join('\n')}\n`);
    // The in-flight batch's last row is edited: its key can no longer replay the same request.
    write(ids.map((_, i) => (i === 3 ? 'Given up 3 (edited)' : `Given up ${i}`)));

    const resumed = await user.run([...args, '--resume', journal]);

    expect(resumed.code, resumed.stderr).toBe(0);
    expect(parse(resumed.stdout).map((r) => r.result)).toEqual(['skipped', 'skipped', 'unchanged', 'ok']);
    const appended = fs
      .readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .slice(records.length - 1)
      .map((line) => JSON.parse(line) as { type: string; key?: string; results?: unknown[] });
    expect(appended[0]).toEqual({ type: 'done', key: givenUp, results: [] });
    expect(appended.slice(1).map((r) => r.type)).toEqual(['sent', 'done', 'end']);
    expect((await readJournal(journal)).inFlight).toEqual([]);
  });
});
