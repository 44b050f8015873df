// Where a governor's budget lives. In memory for one process; in a small JSON file under the
// state folder for processes on one machine that share a profile and host (the
// `split | xargs -P` pattern): read, changed and written under a lock (proper-lockfile, as
// the config store), written whole under another name and renamed, so a reader without the
// lock never sees half a file. A governor syncs with it a few times a second, not per request.
// It is read as a state file (src/base/state-file.ts): a file over 64 KiB (a budget is a few
// hundred bytes per process), a symbolic link, a FIFO or a device at its path is not read (a
// link to /dev/zero once took a run to 16.8 GB; a FIFO hung it), but ignored with one warning
// and replaced by a fresh budget: the rename puts a file in the place of the link, FIFO or
// device itself (it never writes through a link). A folder there cannot be replaced: the
// process paces alone.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../base/io.js';
import { StateFileError } from '../base/errors.js';
import { readStateFile, STATE_FILE_LIMITS } from '../base/state-file.js';
import { emptyBudget, parseBudget, touch, type BudgetState } from './governor-state.js';

/** The budget file of a profile's requests to one origin: readable names, and a hash that keeps them apart. */
export function budgetFile(dir: string, profile: string, origin: string): string {
  const readable = `${profile}-${new URL(origin).host}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  const hash = createHash('sha1').update(`${profile}\n${origin}`).digest('hex').slice(0, 10);
  return path.join(dir, `${readable}-${hash}.json`);
}

export interface BudgetStore {
  /** Whether other processes may share it (then a governor reserves slots in chunks and syncs). */
  readonly shared: boolean;
  /** Applies `change` to the current budget and keeps the result; resolves with it. */
  update(change: (state: BudgetState) => void): Promise<BudgetState>;
  /** Whether the budget may have been changed by someone else since the last update (cheap: no lock). */
  changedElsewhere(): boolean;
}

export class MemoryBudget implements BudgetStore {
  readonly shared = false;
  #state: BudgetState;

  constructor(now: number) {
    this.#state = emptyBudget(now);
  }

  update(change: (state: BudgetState) => void): Promise<BudgetState> {
    change(this.#state);
    return Promise.resolve(this.#state);
  }

  changedElsewhere(): boolean {
    return false;
  }
}

/** A held lock older than this belongs to a process that died holding it. */
const STALE_LOCK_MS = 5000;
/**
 * How long a process waits for the lock: past STALE_LOCK_MS, so that a lock left by a process
 * killed while it held it is taken over once stale (proper-lockfile removes it then), rather
 * than given up on (the budget would then no longer be shared for the rest of the run).
 */
const LOCK_WAIT_MS = STALE_LOCK_MS + 2000;

export class FileBudget implements BudgetStore {
  readonly shared = true;
  #seen: number | undefined;
  /** This process among the budget's users (a pid is unique among live processes; the suffix among governors of one). */
  readonly #member = `${process.pid}-${randomBytes(3).toString('hex')}`;
  /** The file was found unfit once (warned about; not again). */
  #warned = false;

  constructor(
    readonly file: string,
    private readonly clock: Clock,
    /** One line on stderr when what is at the path is not a budget file (too large, a link, a FIFO, a device). */
    private readonly warn: (line: string) => void = () => {},
  ) {}

  async update(change: (state: BudgetState) => void): Promise<BudgetState> {
    const release = await this.#lock();
    try {
      const now = this.clock.now();
      const state = this.#read(now) ?? emptyBudget(now);
      touch(state, this.#member, now);
      change(state);
      this.#write(state);
      return state;
    } finally {
      release();
    }
  }

  changedElsewhere(): boolean {
    const mtime = this.#mtime();
    return mtime !== undefined && mtime !== this.#seen;
  }

  #read(now: number): BudgetState | undefined {
    try {
      const text = readStateFile(this.file, { what: 'request budget file', maxBytes: STATE_FILE_LIMITS.budget });
      return text === undefined ? undefined : parseBudget(text, now);
    } catch (error) {
      if (!(error instanceof StateFileError)) return undefined;
      // A folder cannot be renamed over: the governor paces this process alone (it catches this).
      const alone = error.kind === 'directory';
      if (!this.#warned) {
        this.#warned = true;
        this.warn(`${error.message}: ignored, ${alone ? 'this process paces alone' : 'and replaced by a fresh budget'}`);
      }
      if (alone) throw error;
      return undefined; // none yet, unreadable or unfit: a fresh budget
    }
  }

  #write(state: BudgetState): void {
    const dir = path.dirname(this.file);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const staging = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      fs.writeFileSync(staging, JSON.stringify(state), { mode: 0o600, flag: 'wx' }); // a new file, never through a link
      fs.renameSync(staging, this.file);
    } catch {
      // A budget that cannot be written is not shared this time; the requests still go.
      fs.rmSync(staging, { force: true });
    }
    this.#seen = this.#mtime();
  }

  #mtime(): number | undefined {
    try {
      return fs.lstatSync(this.file).mtimeMs; // the link's, never what it names
    } catch {
      return undefined;
    }
  }

  /** The lock, waited for (by the injected clock) while another process holds it; held for a read and a write. */
  async #lock(): Promise<() => void> {
    const { default: lockfile } = await import('proper-lockfile');
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const started = this.clock.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return lockfile.lockSync(this.file, { realpath: false, stale: STALE_LOCK_MS });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || this.clock.now() - started >= LOCK_WAIT_MS) throw error;
        await this.clock.sleep(2 + Math.min(20, attempt) * Math.random());
      }
    }
  }
}
