// The validation pass: every row is mapped and validated before anything is sent, and
// written to a spool file on disk, so that the send pass streams it in flat memory,
// whether the input was a file or stdin.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandError } from '../base/errors.js';
import { ChunkedWriter } from '../base/stream-write.js';
import { notWritableCode, notWritableReason, notWritableRemedy } from '../config/write-failure.js';
import type { PartialChanges, RowProblem } from './input/row-mapping.js';
import type { Expectation } from './changes/row-change.js';
import { removeLeftByGone } from '../base/process-alive.js';

/**
 * The request a plan puts a row in (plan.ts): the rows with one `key` (its Idempotency-Key)
 * are one request, in the plan's order; `at` is the row's place in it (0, 1, ...).
 */
export interface PlanBatch {
  key: string;
  at: number;
}

/**
 * `n`: the row is the n-th (n > 1) of the input with its id (a patch) or content (a create);
 * see row-identity.ts. `expect`: a planned row's (plan-check.ts); `batch`: its request in the
 * plan. `unit`: 'item' when `line` counts the items of a JSON document. A problem found
 * against the current state (merge.ts) has the row's `id`.
 */
export type SpooledRow =
  | {
      line: number;
      unit?: 'item';
      item: Record<string, unknown>;
      campaignId?: string;
      partial?: PartialChanges;
      n?: number;
      expect?: Expectation;
      batch?: PlanBatch;
    }
  | { line: number; unit?: 'item'; id?: string; problem: RowProblem; batch?: PlanBatch };

const PREFIX = 'platform-bulk-';

/**
 * Removes the spools of runs whose process is gone: one killed with SIGKILL (or a second
 * Ctrl-C) cannot remove its own, and it holds a copy of every input row.
 */
function removeOrphans(tmpdir: string): void {
  removeLeftByGone(tmpdir, (name) => (name.startsWith(PREFIX) ? Number(name.slice(PREFIX.length).split('-')[0]) : 0));
}

/**
 * Rows are written and read in chunks of about this size (a write per row costs a call
 * each). Under V8's large-object size (128 KiB), so a chunk's text dies in the young
 * generation, and a chunk's parsed rows are let go before they outlive a minor GC or two.
 */
const CHUNK_BYTES = 64 * 1024;

/**
 * The spool's folder could not be written (full, over quota, read-only, not permitted): one
 * line naming the folder and what to do. The rows are spooled before any is sent: nothing was.
 */
function spoolNotWritable(tmpdir: string, error: unknown): unknown {
  const code = notWritableCode(error);
  if (!code) return error;
  return new CommandError(
    `the bulk spool folder ${tmpdir} could not be written: ${notWritableReason(code)}, so nothing was sent; ` +
      `${notWritableRemedy(code, tmpdir)}, or point TMPDIR at another folder`,
  );
}

export class Spool {
  readonly path: string;
  readonly #tmpdir: string;
  readonly #out: fs.WriteStream;
  readonly #writer: ChunkedWriter;
  /** The file's first write error: later writes to the destroyed stream would be dropped unseen. */
  #failure: unknown;
  rows = 0;

  constructor(tmpdir = os.tmpdir()) {
    this.#tmpdir = tmpdir;
    removeOrphans(tmpdir);
    let dir: string | undefined;
    try {
      // The owner's pid in the name: a later run can tell a spool whose process is gone.
      dir = fs.mkdtempSync(path.join(tmpdir, `${PREFIX}${process.pid}-`));
      this.path = path.join(dir, 'rows.json');
      // Opened synchronously, so that an early remove() never races an asynchronous open.
      this.#out = fs.createWriteStream(this.path, { fd: fs.openSync(this.path, 'w', 0o600) });
    } catch (error) {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      throw spoolNotWritable(tmpdir, error);
    }
    this.#out.on('error', (error) => (this.#failure ??= error));
    this.#writer = new ChunkedWriter(this.#out, { chunkBytes: CHUNK_BYTES });
  }

  /** Adds a row; returns a promise only when the file asks the writer to wait. */
  add(row: SpooledRow): Promise<void> | undefined {
    this.#check();
    this.rows++;
    try {
      // Each row ends in ",\n": the rows of a chunk read back parse as one array (see read()).
      return this.#writer.write(`${JSON.stringify(row)},\n`)?.catch((error: unknown) => this.#fail(error));
    } catch (error) {
      return this.#fail(error);
    }
  }

  async close(): Promise<void> {
    try {
      await this.#writer.end();
      this.#check();
      await new Promise<void>((resolve, reject) => this.#out.end((error?: Error | null) => (error ? reject(error) : resolve())));
      this.#check();
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Throws the file's write error, if it had one. */
  #check(): void {
    if (this.#failure !== undefined) this.#fail(this.#failure);
  }

  #fail(error: unknown): never {
    throw spoolNotWritable(this.#tmpdir, this.#failure ?? error);
  }

  /** The rows in input order, as the rows of each chunk of the file (fewer steps than one by one). */
  async *read(): AsyncGenerator<SpooledRow[]> {
    let rest = '';
    for await (const chunk of fs.createReadStream(this.path, { encoding: 'utf8', highWaterMark: CHUNK_BYTES })) {
      const text = rest + (chunk as string);
      const end = text.lastIndexOf('\n');
      if (end < 0) {
        rest = text;
        continue;
      }
      rest = text.slice(end + 1);
      // The whole rows of the chunk, without the last row's ",": one JSON.parse, not one per row.
      yield JSON.parse(`[${text.slice(0, end - 1)}]`) as SpooledRow[];
    }
    // Every row was written whole before the file was closed; a partial one means rows would be lost.
    if (rest) throw new Error(`the spool ${this.path} ends in the middle of a row`);
  }

  /** Ends the file (letting pending writes land) and deletes it. */
  async remove(): Promise<void> {
    // Until 'close' (end's callback comes at 'finish', before the descriptor is closed): an
    // open descriptor would keep the deleted file, a copy of every row, on disk until exit.
    if (!this.#out.closed)
      await new Promise<void>((resolve) => {
        this.#out.once('close', () => resolve());
        this.#out.end();
      });
    fs.rmSync(path.dirname(this.path), { recursive: true, force: true });
  }
}
