// The inbox file after a crash: a record cut short mid-append is dropped when the inbox is
// read again, and the file rewritten without it, so the next record appended is not joined
// to it (and lost at the next restart).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InboxStore, type InboxRecord } from '../../src/webhooks/inbox/store.js';
import { tempDir } from '../helpers/temp.js';

function record(id: string, seq: number): InboxRecord {
  return {
    id,
    seq,
    received_at: new Date(1_764_201_600_000 + seq).toISOString(),
    method: 'POST',
    path: '/webhooks',
    headers: [['X-Platform-Signature', 'ab'.repeat(32)]],
    body_base64: Buffer.from(`{"event_id":"${id}"}`).toString('base64'),
    event_id: id,
    event_type: 'requests.status_changed',
    resource_id: null,
    status: 'completed',
    verdict: { valid: true, message: 'valid signature', diagnosis: null, notes: [] },
    duplicate: false,
    out_of_order: false,
    catch_up: false,
    target: null,
    sends: [],
  };
}

describe('the inbox file', () => {
  it('read after a crash cut its last record short: the deliveries after the restart are kept across the next one', () => {
    const file = path.join(tempDir(), 'inbox.ndjson');
    const first = new InboxStore(file);
    first.put(record('evt-1', first.nextSeq()));
    first.put(record('evt-2', first.nextSeq()));
    // The machine went down while the third was appended.
    const whole = JSON.stringify(record('evt-3', 3));
    fs.appendFileSync(file, whole.slice(0, whole.length / 2));

    const restarted = new InboxStore(file);
    expect(restarted.all().map((r) => r.id)).toEqual(['evt-1', 'evt-2']);
    restarted.put(record('evt-4', restarted.nextSeq()));

    const again = new InboxStore(file);
    expect(again.all().map((r) => [r.id, r.seq])).toEqual([
      ['evt-1', 1],
      ['evt-2', 2],
      ['evt-4', 3],
    ]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
