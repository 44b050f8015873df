// What `webhooks listen --since` catches up on when there is no sandbox delivery log (a real
// account): the deliveries this machine's inbox captured since then that no forward or
// replay got a 2xx for, valid and not duplicates, oldest first.
import type { InboxRecord } from './store.js';

export function missedInStore(records: readonly InboxRecord[], sinceMs: number): InboxRecord[] {
  return records
    .filter((r) => Date.parse(r.received_at) >= sinceMs && r.verdict.valid && !r.duplicate)
    .filter((r) => !r.sends.some((s) => 'status' in s.result && s.result.status >= 200 && s.result.status < 300))
    .sort((a, b) => a.seq - b.seq);
}
