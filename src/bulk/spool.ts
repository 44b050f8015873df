// The validation pass: every row is mapped and validated before anything is sent, and
// written to a spool file on disk, so that the send pass streams it in flat memory,
// whether the input was a file or stdin.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { PartialChanges, RowProblem } from './row-mapping.js';

export type SpooledRow = { line: number; item: Record<string, unknown>; campaignId?: string; partial?: PartialChanges } | { line: number; problem: RowProblem };

export class Spool {
  readonly path: string;
  readonly #out: fs.WriteStream;
  rows = 0;
  invalid = 0;

  constructor(tmpdir = os.tmpdir()) {
    const dir = fs.mkdtempSync(path.join(tmpdir, 'platform-bulk-'));
    this.path = path.join(dir, 'rows.ndjson');
    // Opened synchronously, so that an early remove() never races an asynchronous open.
    this.#out = fs.createWriteStream(this.path, { fd: fs.openSync(this.path, 'w', 0o600) });
  }

  async add(row: SpooledRow): Promise<void> {
    this.rows++;
    if ('problem' in row) this.invalid++;
    if (!this.#out.write(`${JSON.stringify(row)}\n`)) await new Promise<void>((resolve) => this.#out.once('drain', () => resolve()));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.#out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }

  async *read(): AsyncGenerator<SpooledRow> {
    const lines = readline.createInterface({ input: fs.createReadStream(this.path), crlfDelay: Infinity });
    for await (const line of lines) if (line) yield JSON.parse(line) as SpooledRow;
  }

  /** Ends the file (letting pending writes land) and deletes it. */
  async remove(): Promise<void> {
    if (!this.#out.closed) await new Promise<void>((resolve) => this.#out.end(() => resolve()));
    fs.rmSync(path.dirname(this.path), { recursive: true, force: true });
  }
}
