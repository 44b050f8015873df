// The inbox's deliveries on disk, so the page survives a restart of `webhooks listen`: one
// NDJSON file (mode 0600; bodies may carry personal data), each line a whole record. A
// change appends the record again; reading keeps the last line of each id. Bounded: past
// `limit` records the oldest are dropped, and the file is rewritten (through a temporary
// file and a rename) once it holds twice as many lines as records.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SendResult } from '../delivery.js';
import { syncToDisk } from '../../base/part-file.js';
import { readStateFile, STATE_FILE_LIMITS } from '../../base/state-file.js';
import { INBOX_LIMIT } from '../listen-defaults.js';
import type { InboxVerdict } from './verdict.js';

/** One send of a delivery by the listener: the automatic forward, a replay, or an edited replay. */
export interface InboxSend {
  at: string;
  kind: 'forward' | 'replay' | 'edited';
  url: string;
  /** How the body was signed: as received, re-signed, deliberately unsigned or wrongly signed. */
  signing: 'as-received' | 'resigned' | 'unsigned' | 'wrong';
  result: SendResult;
  ms: number;
  /** An edited replay's body. */
  body_base64?: string;
}

export interface InboxRecord {
  id: string;
  /** Arrival order, across restarts. */
  seq: number;
  received_at: string;
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body_base64: string;
  event_id: string | null;
  event_type: string | null;
  resource_id: string | null;
  status: string | null;
  verdict: InboxVerdict;
  /** With listen --basic-auth or --oauth-client: whether its credentials passed (absent in records kept before). */
  auth?: { authorized: boolean; reason: string | null };
  duplicate: boolean;
  out_of_order: boolean;
  catch_up: boolean;
  /** Where the automatic forward went (none: not forwarded). */
  target: string | null;
  sends: InboxSend[];
}

export class InboxStore {
  readonly #records = new Map<string, InboxRecord>();
  #lines = 0;
  #seq = 0;

  constructor(
    readonly file: string,
    readonly limit = INBOX_LIMIT,
  ) {
    // A regular file of at most 256 MiB (500 deliveries, each appended again per change); a
    // link, FIFO or device at its path is refused (StateFileError), not read.
    const text = readStateFile(file, { what: 'inbox file', maxBytes: STATE_FILE_LIMITS.inbox }) ?? '';
    /** Lines not read: an older version's, or one cut short by a crash (kept, it would swallow the next record appended). */
    let unread = 0;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const record = JSON.parse(line) as InboxRecord;
        if (typeof record.id !== 'string' || typeof record.seq !== 'number') {
          unread++;
          continue;
        }
        this.#records.delete(record.id); // re-inserted: the map keeps arrival order of last writes
        this.#records.set(record.id, record);
        this.#seq = Math.max(this.#seq, record.seq);
        this.#lines++;
      } catch {
        unread++; // a line cut short by a crash: the rest is still good
      }
    }
    this.#trim();
    // Lines not read, or of dropped records: rewrite the file without them.
    if (unread > 0 || this.#lines > this.#records.size) this.#compact();
  }

  nextSeq(): number {
    return ++this.#seq;
  }

  /** Newest last. */
  all(): InboxRecord[] {
    return [...this.#records.values()].sort((a, b) => a.seq - b.seq);
  }

  get(id: string): InboxRecord | undefined {
    return this.#records.get(id);
  }

  put(record: InboxRecord): void {
    this.#records.set(record.id, record);
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    fs.appendFileSync(this.file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    this.#lines++;
    this.#trim();
    if (this.#lines > 2 * this.limit) this.#compact();
  }

  /** Drops the oldest past the limit (from memory; the file follows at the next compaction). */
  #trim(): void {
    if (this.#records.size <= this.limit) return;
    for (const old of this.all().slice(0, this.#records.size - this.limit)) this.#records.delete(old.id);
  }

  #compact(): void {
    const records = this.all();
    const tmp = `${this.file}.tmp-${randomBytes(6).toString('hex')}`;
    fs.writeFileSync(tmp, records.map((r) => `${JSON.stringify(r)}\n`).join(''), { mode: 0o600 });
    syncToDisk(tmp);
    fs.renameSync(tmp, this.file);
    fs.chmodSync(this.file, 0o600);
    this.#lines = records.length;
  }
}
