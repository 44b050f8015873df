// A plan (`--dry-run --plan FILE`): what a create or patch would do, written for review and
// then sent as it is (`platform ads apply FILE`); written only by a dry run that went through
// every row (PlanWriter). NDJSON, 0600, version 2: a header (its id, resource, mode, account
// and campaign, its target: the API origin, account and profile it was made with; when, the
// batch size, how many rows and the seal of its rows), then one record per row that would
// change something: its id, the leaves of every field it sets as they were read (`current`),
// as they will be written (`write`), the request body item (`request`, which apply rebuilds
// from `write` and the id, and refuses where they disagree), and `key`: the Idempotency-Key of
// the request that carries it. The rows with one key are one request, in the plan's order, so
// that every apply of the plan, by any profile, on any machine, sends the same rows under the
// same keys, and the API answers a repeat with what it answered first. Every line is sealed
// (plan-seal.ts): apply refuses a plan edited since, naming the first line that changed.
// Apply sends a row only if its resource still has `current` (plan-check.ts).
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isDeepStrictEqual } from 'node:util';
import type { AdsScope } from '../../api/ads-resources.js';
import { UsageError } from '../../base/errors.js';
import { createStateFileStream, STATE_FILE_LIMITS } from '../../base/state-file.js';
import { boundedLines, overlongLine } from '../../base/bounded-lines.js';
import { write } from '../../base/stream-write.js';
import { partPath, removeStaleParts, syncToDisk } from '../../base/part-file.js';
import type { MergedRow } from '../changes/merge.js';
import { flatten } from '../changes/diff.js';
import type { PlannedRow } from '../pipeline.js';
import { touchedValues } from '../changes/row-change.js';
import type { RowIdentity } from '../row-identity.js';
import { MAX_OPEN_BATCHES } from '../runner.js';
import { chainNext, chainStart, sha256Hex, unseal, withSeal } from './plan-seal.js';

const VERSION = 2;

type Json = Record<string, unknown>;

/** Where a plan was made: the ads API's origin, the account and the profile. */
export interface PlanTarget {
  origin: string;
  account: string;
  profile: string;
}

export interface PlanHeader {
  type: 'plan';
  version: number;
  /** The plan's own id, random: an apply's journal keeps it, so that a second apply goes on with that run. */
  id: string;
  resource: string;
  mode: 'create' | 'patch';
  scope: AdsScope;
  target: PlanTarget;
  created: string;
  /** The command that made it (after `platform`). */
  command?: string;
  /** Rows per request: each key carries at most this many. */
  batch_size: number;
  /** Made by `apply --again` from the plan of this SHA-256 (its file's). */
  again_of?: string;
  /** How many rows follow. */
  rows: number;
  /** The last row's seal (plan-seal.ts). */
  rows_sha256: string;
  /** The header's own seal. */
  sha256: string;
}

/** What a plan's header says of how it was made (the rest follows from its rows). */
export type PlanMaking = Omit<PlanHeader, 'type' | 'version' | 'rows' | 'rows_sha256' | 'sha256'>;

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
  /** The Idempotency-Key of the request that carries this row (with the other rows of this key). */
  key: string;
}

/** Whether an earlier run settled the row (truthy: its result). */
type Settled = (row: RowIdentity & { line: number }) => unknown;

/**
 * Writes a plan's sealed lines: the rows into a file beside FILE as they come, then, once the
 * plan is whole (`commit`), FILE: the header (which holds the rows' count and seal), then the
 * rows, written under another name and renamed. A writer stopped or killed part-way leaves no
 * plan that apply would send as if it were whole, and FILE as it was.
 */
class SealedPlanFile {
  #chain: string;
  #rows = 0;

  private constructor(
    readonly file: string,
    readonly id: string,
    private readonly partial: string,
    private readonly out: fs.WriteStream,
  ) {
    this.#chain = chainStart(id);
  }

  /** `flag`: what named FILE, for a message. */
  static open(file: string, id: string, flag: string): SealedPlanFile {
    // (found now, not after the whole dry run, when the rename would fail)
    if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${flag}: ${file} is a directory`);
    removeStaleParts(file);
    const partial = partPath(file);
    let fd: number;
    try {
      fd = fs.openSync(partial, 'wx', 0o600);
    } catch (error) {
      throw new UsageError(`${flag}: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    return new SealedPlanFile(file, id, partial, fs.createWriteStream(partial, { fd }));
  }

  /** A row's sealed line (written with the next `flush`). */
  seal(record: PlanRecord): string {
    this.#chain = chainNext(this.#chain, JSON.stringify(record));
    this.#rows++;
    return `${withSeal(JSON.stringify(record), this.#chain)}\n`;
  }

  async flush(text: string): Promise<void> {
    if (text) await write(this.out, text);
  }

  /** The plan is whole: FILE becomes its header and rows, on disk before it takes FILE's name. */
  async commit(making: PlanMaking): Promise<void> {
    await closeStream(this.out);
    const header = { type: 'plan', version: VERSION, ...making, rows: this.#rows, rows_sha256: this.#chain };
    const json = JSON.stringify(header);
    const whole = partPath(this.file);
    try {
      const out = fs.createWriteStream(whole, { fd: fs.openSync(whole, 'wx', 0o600) });
      await write(out, `${withSeal(json, sha256Hex(json))}\n`);
      await pipeline(fs.createReadStream(this.partial), out);
      // A crash then leaves the old FILE or the whole new one.
      syncToDisk(whole);
      fs.renameSync(whole, this.file);
    } finally {
      fs.rmSync(whole, { force: true });
      fs.rmSync(this.partial, { force: true });
    }
  }

  async discard(): Promise<void> {
    await closeStream(this.out).catch(() => undefined);
    fs.rmSync(this.partial, { force: true });
  }
}

async function closeStream(out: fs.WriteStream): Promise<void> {
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/**
 * Writes a plan while a dry run streams its rows (`rows` passes them on unchanged), putting
 * each row in a request as a run would batch it: per campaign, at most `batch_size` rows, and
 * at most MAX_OPEN_BATCHES campaigns' requests open at once. Each request gets a random key.
 */
export class PlanWriter {
  /** The open request of each campaign: its key and how many rows it has. */
  readonly #open = new Map<string, { key: string; rows: number }>();

  private constructor(
    private readonly sealed: SealedPlanFile,
    private readonly making: PlanMaking,
    private readonly idField: string,
    private readonly settled: Settled,
  ) {}

  /** `settled`: what an earlier run settled (a resumed run's dry run): not in the plan. */
  static open(file: string, making: PlanMaking, idField: string, settled: Settled = () => undefined): PlanWriter {
    return new PlanWriter(SealedPlanFile.open(file, making.id, '--plan'), making, idField, settled);
  }

  async *rows(chunks: AsyncIterable<MergedRow[]>): AsyncGenerator<MergedRow[]> {
    for await (const chunk of chunks) {
      let text = '';
      for (const row of chunk) {
        // Only rows that would change something: not unchanged, invalid, conflicting or not found.
        if (!('item' in row) || 'unread' in row || row.current === null || ('key' in row && this.settled(row))) continue;
        text += this.sealed.seal({
          type: 'row',
          line: row.line,
          id: row.current === undefined ? '' : String(row.item[this.idField]),
          ...(row.campaignId ? { campaign_id: row.campaignId } : {}),
          ...(row.current ? { current: touchedValues(row.item, row.current, this.idField) } : {}),
          write: touchedValues(row.item, row.item, this.idField),
          request: row.item,
          key: this.#keyFor(row.campaignId ?? ''),
        });
      }
      await this.sealed.flush(text);
      yield chunk;
    }
  }

  #keyFor(campaign: string): string {
    let batch = this.#open.get(campaign);
    if (!batch) {
      if (this.#open.size >= MAX_OPEN_BATCHES) this.#open.delete(this.#open.keys().next().value!);
      batch = { key: randomUUID(), rows: 0 };
      this.#open.set(campaign, batch);
    }
    if (++batch.rows >= this.making.batch_size) this.#open.delete(campaign);
    return batch.key;
  }

  /** The plan is whole: it becomes FILE. */
  async commit(): Promise<void> {
    await this.sealed.commit(this.making);
  }

  /** The dry run did not go through every row: no plan. */
  async discard(): Promise<void> {
    await this.sealed.discard();
  }
}

/** A plan read whole and found as it was made (verifyPlan). */
export interface VerifiedPlan {
  file: string;
  header: PlanHeader;
  /** The line the header is: a second read must find the same. */
  headerLine: string;
  /** The SHA-256 of the file's bytes: the plan's hash (`plan sha256:…`; the ledger's). */
  sha256: string;
  /** Rows per request, by key. */
  batches: Map<string, number>;
}

/** A plan's header (read first: it says which resource and account the rows are for). A plan of version 1 is refused. */
export async function readPlanHeader(file: string): Promise<PlanHeader> {
  const lines = planLines(file);
  try {
    for await (const { text } of lines) return checkHeader(file, text);
  } finally {
    lines.close();
  }
  throw notPlan(file);
}

const notPlan = (file: string) => new UsageError(`${file} is not a plan (its first line is not a plan header: make one with --dry-run --plan FILE)`);

function checkHeader(file: string, text: string): PlanHeader {
  let header: Partial<PlanHeader>;
  try {
    header = JSON.parse(text) as Partial<PlanHeader>;
  } catch {
    throw notPlan(file);
  }
  if (header?.type !== 'plan') throw notPlan(file);
  if (header.version === 1 || (header.version === undefined && header.target === undefined)) {
    throw new UsageError(
      `${file} is a plan of version 1, made before plans named their target and fixed their idempotency keys; nothing was sent: make it again with --dry-run --plan`,
    );
  }
  if (header.version !== VERSION) throw new UsageError(`${file}: a plan of version ${String(header.version)}; this platform reads version ${VERSION}`);
  const sealed = unseal(text);
  if (!sealed || sha256Hex(sealed.content) !== sealed.seal) throw changed(file, 1, 'the header');
  const bad = (what: string) => new UsageError(`${file}: line 1: ${what}`);
  if (header.mode !== 'create' && header.mode !== 'patch') throw bad('mode must be create or patch');
  if (typeof header.resource !== 'string' || typeof header.scope?.account !== 'string') throw bad('the header has no resource or account');
  const target = header.target;
  if (typeof target?.origin !== 'string' || typeof target.account !== 'string' || typeof target.profile !== 'string') throw bad('the header has no target');
  if (typeof header.id !== 'string' || !header.id) throw bad('the header has no id');
  if (!Number.isSafeInteger(header.batch_size) || header.batch_size! < 1) throw bad('batch_size must be a whole number from 1');
  if (!Number.isSafeInteger(header.rows) || typeof header.rows_sha256 !== 'string') throw bad('the header has no rows or rows_sha256');
  return header as PlanHeader;
}

function changed(file: string, line: number, what = ''): UsageError {
  return new UsageError(
    `${file}: line ${line}${what ? ` (${what})` : ''} changed since the plan was made (its sha256 does not match); nothing was sent: make the plan again`,
  );
}

/**
 * Reads the whole plan, checking every line against its seal and every row's request against
 * its `write` and id, before anything is sent. A UsageError names the first line at fault.
 */
export async function verifyPlan(file: string, idField: string): Promise<VerifiedPlan> {
  const lines = planLines(file);
  let header: PlanHeader | undefined;
  let headerLine = '';
  const batches = new Map<string, number>();
  try {
    const onHeader = (text: string) => {
      headerLine = text;
      return (header = checkHeader(file, text));
    };
    for await (const row of sealedRows(file, lines, idField, onHeader)) {
      batches.set(row.key, (batches.get(row.key) ?? 0) + 1);
    }
  } finally {
    lines.close();
  }
  if (!header) throw notPlan(file);
  return { file, header, headerLine, sha256: lines.sha256(), batches };
}

/**
 * The plan's rows as the pipeline takes them (apply), checked again as they are read, each
 * rebuilt from its `write` and id, with its request (`batch`: its key, through `keyOf`, and
 * its place in it). The file must still be the one `verifyPlan` read, or nothing is sent.
 */
export async function* plannedRows(plan: VerifiedPlan, idField: string, keyOf: (key: string) => string = (key) => key): AsyncGenerator<PlannedRow> {
  const { file } = plan;
  const lines = planLines(file);
  const places = new Map<string, number>();
  const sameHeader = (text: string) => {
    if (text !== plan.headerLine) throw new UsageError(`${file} changed while it was read; nothing was sent`);
    return plan.header;
  };
  try {
    for await (const row of sealedRows(file, lines, idField, sameHeader)) {
      const at = places.get(row.key) ?? 0;
      places.set(row.key, at + 1);
      yield {
        line: row.line,
        request: requestOf(row.write, row.id, idField),
        ...(row.campaign_id ? { campaignId: row.campaign_id } : {}),
        ...(row.current ? { expect: { current: row.current } } : {}),
        batch: { key: keyOf(row.key), at },
      };
    }
  } finally {
    lines.close();
  }
  if (lines.sha256() !== plan.sha256) throw new UsageError(`${file} changed while it was read; nothing was sent`);
}

/**
 * A new plan from a verified one (`apply --again`): the same rows in the same requests, under
 * new keys, with a new id, written to `file` (sealed anew). Returns it verified.
 */
export async function planAgain(plan: VerifiedPlan, file: string, idField: string, created: string): Promise<VerifiedPlan> {
  const making: PlanMaking = { ...headerMaking(plan.header), id: randomUUID(), created, again_of: plan.sha256 };
  const sealed = SealedPlanFile.open(file, making.id, '--again');
  const keys = new Map<string, string>();
  const lines = planLines(plan.file);
  let whole = false;
  try {
    for await (const row of sealedRows(plan.file, lines, idField, (text) => (text === plan.headerLine ? plan.header : changedWhileRead(plan.file)))) {
      const { planLine: _line, ...record } = row;
      let key = keys.get(row.key);
      if (!key) keys.set(row.key, (key = randomUUID()));
      await sealed.flush(sealed.seal({ ...record, key }));
    }
    if (lines.sha256() !== plan.sha256) changedWhileRead(plan.file);
    whole = true;
  } finally {
    lines.close();
    if (!whole) await sealed.discard();
  }
  await sealed.commit(making);
  return verifyPlan(file, idField);
}

function changedWhileRead(file: string): never {
  throw new UsageError(`${file} changed while it was read; nothing was sent`);
}

/** The header's fields that say how the plan was made, in the header's order. */
function headerMaking(header: PlanHeader): PlanMaking {
  const { type: _type, version: _version, rows: _rows, rows_sha256: _rowsSeal, sha256: _seal, ...making } = header;
  return making;
}

/** The request a row's `write` (leaves by dotted path) and id make. */
export function requestOf(written: Json, id: string, idField: string): Json {
  const item: Json = id ? { [idField]: id } : {};
  for (const [leaf, value] of Object.entries(written)) {
    const keys = leaf.split('.');
    let at = item;
    for (const key of keys.slice(0, -1)) {
      const inner = at[key];
      at = (at[key] = inner && typeof inner === 'object' && !Array.isArray(inner) ? inner : {}) as Json;
    }
    at[keys.at(-1)!] = value;
  }
  return item;
}

/** How a request differs from its row's `write` and id: the first leaf that does, or undefined. */
function requestMismatch(record: PlanRecord, idField: string): string | undefined {
  const rebuilt = requestOf(record.write, record.id, idField);
  if (isDeepStrictEqual(rebuilt, record.request)) return undefined;
  const leaves = (item: Json) => {
    const out = new Map<string, unknown>();
    flatten(item, '', out);
    return out;
  };
  const [want, got] = [leaves(rebuilt), leaves(record.request)];
  const show = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value));
  for (const leaf of new Set([...want.keys(), ...got.keys()])) {
    if (!isDeepStrictEqual(want.get(leaf), got.get(leaf))) return `${leaf} is ${show(got.get(leaf))} where write and id give ${show(want.get(leaf))}`;
  }
  return 'it is not what write and id give';
}

type ReadRow = PlanRecord & { planLine: number };

/**
 * The plan's rows, each checked: its seal (the chain from the plan's id), its fields, its
 * request against its `write`; then that the rows are as many as the header says, ending at
 * its seal. `onHeader` checks the header line and returns it.
 */
async function* sealedRows(file: string, lines: PlanLines, idField: string, onHeader: (text: string) => PlanHeader): AsyncGenerator<ReadRow> {
  let header: PlanHeader | undefined;
  let chain = '';
  let rows = 0;
  let last = 1;
  for await (const { text, number } of lines) {
    if (!header) {
      header = onHeader(text);
      chain = chainStart(header.id);
      continue;
    }
    last = number;
    rows++;
    const sealed = unseal(text);
    const next = sealed && chainNext(chain, sealed.content);
    if (!sealed || next !== sealed.seal) throw changed(file, number);
    chain = next;
    if (rows > header.rows)
      throw new UsageError(`${file}: line ${number} is a row the plan did not have (it had ${header.rows}); nothing was sent: make the plan again`);
    const bad = (what: string) => new UsageError(`${file}: line ${number}: ${what}`);
    let row: Partial<PlanRecord>;
    try {
      row = JSON.parse(text) as Partial<PlanRecord>;
    } catch {
      throw bad('not JSON');
    }
    if (row.type !== 'row') throw bad('not a plan row');
    if (!isObject(row.request)) throw bad('request must be an object');
    if (!isObject(row.write)) throw bad('write must be an object');
    if (row.current !== undefined && !isObject(row.current)) throw bad('current must be an object');
    if (typeof row.line !== 'number') throw bad('line must be a number');
    if (typeof row.id !== 'string') throw bad('id must be a string');
    if (typeof row.key !== 'string' || !row.key) throw bad('key must be a string (the idempotency key of its request)');
    if (header.mode === 'patch' && !row.current) throw bad('a patch row needs the current values it was planned against');
    const mismatch = requestMismatch(row as PlanRecord, idField);
    if (mismatch) throw bad(`its request does not match its write: ${mismatch}; nothing was sent: make the plan again`);
    const { sha256: _seal, ...record } = row as PlanRecord & { sha256: string };
    yield { ...record, planLine: number };
  }
  if (!header) return;
  if (rows < header.rows) {
    throw new UsageError(
      `${file}: ends at line ${last} with ${rows} of the plan's ${header.rows} rows: rows were removed; nothing was sent: make the plan again`,
    );
  }
  if (chain !== header.rows_sha256)
    throw new UsageError(`${file}: its rows are not the header's (rows_sha256 does not match); nothing was sent: make the plan again`);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface PlanLines extends AsyncIterable<{ text: string; number: number }> {
  /** The SHA-256 of the bytes read: the file's, once every line was read. */
  sha256(): string;
  close(): void;
}

/** The plan's lines (blank ones left out), numbered as in the file, with the SHA-256 of its bytes. */
function planLines(file: string): PlanLines {
  if (file === '-') throw new UsageError('PLAN: give the plan file that --dry-run --plan wrote (it is read twice, so not from stdin), not -');
  let input: fs.ReadStream;
  try {
    // A plan is named by the user: a link to one is followed, but a FIFO or a device is refused unread.
    input = createStateFileStream(file, { what: 'plan', maxBytes: STATE_FILE_LIMITS.plan, followLinks: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`no such plan ${file}`);
    throw error;
  }
  const hash = createHash('sha256');
  input.on('data', (chunk) => hash.update(chunk));
  let digest: string | undefined;
  return {
    async *[Symbol.asyncIterator]() {
      let number = 0;
      for await (const text of boundedLines(input)) {
        number++;
        if (text === undefined) throw new UsageError(`${file}: ${overlongLine(number)}, more than any plan line; nothing was sent`);
        if (text.trim()) yield { text, number };
      }
      digest = hash.digest('hex');
    },
    sha256: () => digest ?? '',
    // (the header is read alone: the file is let go at once, not when collected)
    close: () => input.destroy(),
  };
}

/**
 * What names a plan in the runs it was applied by: its id; applied elsewhere than its target
 * (`--retarget`), its id and that target, so that the runs there are another plan's.
 */
/**
 * Where an apply sends a plan's rows against where it was made: the account it applies to
 * (`account` when given, else the plan's), and the origin and account to retarget to when that
 * is elsewhere. Elsewhere without `retarget` is refused, nothing sent. `batchSize`, when given,
 * must be the plan's: its requests, and their keys, were fixed when it was made.
 */
export function planDestination(
  plan: VerifiedPlan,
  file: string,
  to: { origin: string; account?: string; retarget?: boolean; batchSize?: number },
): { account: string; retarget?: { origin: string; account: string } } {
  if (to.batchSize !== undefined && to.batchSize !== plan.header.batch_size) {
    throw new UsageError(
      `--batch-size: ${file} puts its rows in requests of up to ${plan.header.batch_size}, each under its own idempotency key; make the plan with --batch-size ${to.batchSize} instead`,
    );
  }
  const { target } = plan.header;
  const account = to.account ?? target.account;
  const elsewhere = to.origin !== target.origin || account !== target.account;
  if (elsewhere && !to.retarget) {
    throw new UsageError(
      `${file} was made for account ${target.account} at ${target.origin}, and this apply is against account ${account} at ${to.origin}; ` +
        'nothing was sent: add --retarget to apply it here (every row is read here first), or make the plan here',
    );
  }
  return elsewhere ? { account, retarget: { origin: to.origin, account } } : { account };
}

export function planIdentity(header: PlanHeader, retarget?: { origin: string; account: string }): string {
  if (!retarget) return header.id;
  return `${header.id}@${createHash('sha256').update(`${retarget.origin}\n${retarget.account}`).digest('hex').slice(0, 12)}`;
}

/**
 * The keys a plan's requests are sent under: its own; applied elsewhere than its target
 * (`--retarget`), keys made from its own and that target, so that a repeat there is answered
 * as the first, and a server that keeps keys per client never takes them for the target's.
 */
export function planKeysAt(retarget?: { origin: string; account: string }): (key: string) => string {
  if (!retarget) return (key) => key;
  const suffix = sha256Hex(`${retarget.origin}\n${retarget.account}`).slice(0, 12);
  return (key) => `${key}.${suffix}`;
}

/** The name `apply --again` gives the new plan it makes from FILE: beside it, `NAME.again-<8 hex>.ndjson`. */
export function againFileName(file: string): string {
  const base = path.basename(file).replace(/\.ndjson$/, '');
  return path.join(path.dirname(file), `${base}.again-${randomUUID().slice(0, 8)}.ndjson`);
}
