// A plan (`--dry-run --plan FILE`): what a create or patch would do, written for review and
// then sent as it is (`platform ads apply FILE`); written only by a dry run that went through
// every row (PlanWriter). NDJSON, 0600: a header (resource, mode,
// account and campaign, when), then one record per row that would change something: its
// id, the leaves of every field it sets as they were read (`current`), as they will be
// written (`write`), and the request body item (`request`). Apply sends `request` only if the
// resource still has `current` (plan-check.ts).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import readline from 'node:readline';
import type { AdsScope } from '../../api/ads-resources.js';
import { UsageError } from '../../base/errors.js';
import { write } from '../../base/stream-write.js';
import { partPath, removeStaleParts, syncToDisk } from '../../base/part-file.js';
import type { MergedRow } from '../changes/merge.js';
import type { PlannedRow } from '../pipeline.js';
import { touchedValues } from '../changes/row-change.js';
import type { RowIdentity } from '../row-identity.js';

const VERSION = 1;

export interface PlanHeader {
  type: 'plan';
  version: number;
  resource: string;
  mode: 'create' | 'patch';
  scope: AdsScope;
  created: string;
  /** The plan's own id, random: an apply's journal keeps it, so that a second apply goes on with that run. */
  id?: string;
  /** The command that made it (after `platform`). */
  command?: string;
}

export interface PlanRecord {
  type: 'row';
  /** The row's line (or item) in the input the plan was made from. */
  line: number;
  /** The resource's id (a patch); empty for a create. */
  id: string;
  campaign_id?: string;
  /** A patch: the leaves of the fields it sets, as read when the plan was made. */
  current?: Record<string, unknown>;
  /** The same leaves as they will be written. */
  write: Record<string, unknown>;
  request: Record<string, unknown>;
}

/** Whether an earlier run settled the row (truthy: its result). */
type Settled = (row: RowIdentity & { line: number }) => unknown;

/**
 * Writes a plan while a dry run streams its rows (`rows` passes them on unchanged): into a
 * file beside FILE, renamed to FILE only when the dry run has gone through every row
 * (`commit`). A dry run stopped or killed part-way leaves no plan that apply would send as if
 * it were whole, and FILE as it was.
 */
export class PlanWriter {
  readonly #out: fs.WriteStream;
  readonly #idField: string;
  readonly #file: string;
  readonly #partial: string;
  readonly #settled: Settled;

  private constructor(out: fs.WriteStream, idField: string, file: string, partial: string, settled: Settled) {
    this.#out = out;
    this.#idField = idField;
    this.#file = file;
    this.#partial = partial;
    this.#settled = settled;
  }

  /** `settled`: what an earlier run settled (a resumed run's dry run): not in the plan. */
  static async open(file: string, header: Omit<PlanHeader, 'type' | 'version'>, idField: string, settled: Settled = () => undefined): Promise<PlanWriter> {
    // (found now, not after the whole dry run, when the rename would fail)
    if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--plan: ${file} is a directory`);
    removeStaleParts(file);
    const partial = partPath(file);
    let fd: number;
    try {
      fd = fs.openSync(partial, 'wx', 0o600);
    } catch (error) {
      throw new UsageError(`--plan: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    const out = fs.createWriteStream(partial, { fd });
    const writer = new PlanWriter(out, idField, file, partial, settled);
    await write(out, `${JSON.stringify({ type: 'plan', version: VERSION, ...header })}\n`);
    return writer;
  }

  async *rows(chunks: AsyncIterable<MergedRow[]>): AsyncGenerator<MergedRow[]> {
    for await (const chunk of chunks) {
      let text = '';
      for (const row of chunk) {
        // Only rows that would change something: not unchanged, invalid, conflicting or not found.
        if (!('item' in row) || 'unread' in row || row.current === null || ('key' in row && this.#settled(row))) continue;
        const record: PlanRecord = {
          type: 'row',
          line: row.line,
          id: row.current === undefined ? '' : String(row.item[this.#idField]),
          ...(row.campaignId ? { campaign_id: row.campaignId } : {}),
          ...(row.current ? { current: touchedValues(row.item, row.current, this.#idField) } : {}),
          write: touchedValues(row.item, row.item, this.#idField),
          request: row.item,
        };
        text += `${JSON.stringify(record)}\n`;
      }
      if (text) await write(this.#out, text);
      yield chunk;
    }
  }

  /** The plan is whole: it becomes FILE. */
  async commit(): Promise<void> {
    await this.#close();
    // On disk before it takes FILE's name: a crash then leaves the old FILE or the whole new one.
    syncToDisk(this.#partial);
    fs.renameSync(this.#partial, this.#file);
  }

  /** The dry run did not go through every row: no plan. */
  async discard(): Promise<void> {
    await this.#close().catch(() => undefined);
    fs.rmSync(this.#partial, { force: true });
  }

  async #close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.#out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}

/** A plan's header (read first: it says which resource and account the rows are for). */
export async function readPlanHeader(file: string): Promise<PlanHeader> {
  for await (const record of planRecords(file)) {
    const header = record.value as Partial<PlanHeader>;
    if (header.type !== 'plan') break;
    if (header.version !== VERSION) throw new UsageError(`${file}: a plan of version ${String(header.version)}; this platform reads version ${VERSION}`);
    if (header.mode !== 'create' && header.mode !== 'patch') throw new UsageError(`${file}: line 1: mode must be create or patch`);
    if (typeof header.resource !== 'string' || typeof header.scope?.account !== 'string')
      throw new UsageError(`${file}: line 1: the header has no resource or account`);
    return header as PlanHeader;
  }
  throw new UsageError(`${file} is not a plan (its first line is not a plan header: make one with --dry-run --plan FILE)`);
}

/**
 * What names a plan in the runs it was applied by: its id (plans made before ids: its header,
 * hashed, which holds the time it was made to the millisecond and the command).
 */
export function planIdentity(header: PlanHeader): string {
  return header.id ?? `header-${createHash('sha256').update(JSON.stringify(header)).digest('hex').slice(0, 32)}`;
}

/** The plan's rows, checked for the fields apply needs (a bad record: a UsageError naming its line). */
export async function* readPlanRows(file: string): AsyncGenerator<PlanRecord & { planLine: number }> {
  for await (const { value, number } of planRecords(file)) {
    if (number === 1) continue;
    const row = value as Partial<PlanRecord>;
    const bad = (what: string) => new UsageError(`${file}: line ${number}: ${what}`);
    if (row.type !== 'row') throw bad('not a plan row');
    if (!row.request || typeof row.request !== 'object' || Array.isArray(row.request)) throw bad('request must be an object');
    if (row.current !== undefined && (typeof row.current !== 'object' || row.current === null)) throw bad('current must be an object');
    if (typeof row.line !== 'number') throw bad('line must be a number');
    yield { ...(row as PlanRecord), planLine: number };
  }
}

/** The plan's rows as the pipeline takes them (apply): a patch row is sent only while its resource has the plan's current values. */
export async function* plannedRows(file: string, mode: 'create' | 'patch'): AsyncGenerator<PlannedRow> {
  for await (const row of readPlanRows(file)) {
    if (mode === 'patch' && !row.current) throw new UsageError(`${file}: line ${row.planLine}: a patch row needs the current values it was planned against`);
    yield {
      line: row.line,
      request: row.request,
      ...(row.campaign_id ? { campaignId: row.campaign_id } : {}),
      ...(row.current ? { expect: { current: row.current } } : {}),
    };
  }
}

async function* planRecords(file: string): AsyncGenerator<{ value: unknown; number: number }> {
  if (!fs.existsSync(file)) {
    throw new UsageError(
      file === '-' ? 'PLAN: give the plan file that --dry-run --plan wrote (it is read twice, so not from stdin), not -' : `no such plan ${file}`,
    );
  }
  const input = fs.createReadStream(file);
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const line of lines) {
      number++;
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new UsageError(`${file}: line ${number} is not JSON`);
      }
      yield { value, number };
    }
  } finally {
    // (the header is read alone: the file is let go at once, not when collected)
    input.destroy();
  }
}
