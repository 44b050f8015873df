// Named snapshots of the whole sandbox state (`sandbox snapshot save|restore`, `reset`), kept
// in memory by name and, with --state FILE, also in FILE.snapshots/NAME.json so they outlive a
// restart. A snapshot in memory is a frozen state (store.ts): references to the store's
// copy-on-write containers, so saving and restoring take the same time at any size, and later
// writes never reach it. Only a snapshot read back from its file pays for parsing, once.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { saveState, stateDataOf, type FrozenState, type StateData } from '../store.js';
import { SNAPSHOT_NAME } from './snapshot-name.js';

/** Names are file names too: letters, digits, dot, dash, underscore; not starting with a dot. */
export { SNAPSHOT_NAME };

export interface SnapshotInfo {
  name: string;
  /** Size of its file (with --state); a snapshot in memory shares the live state's records and has no size of its own. */
  bytes?: number;
  /** Sandbox clock when saved, milliseconds since the epoch. */
  saved_at: number;
  campaigns: number;
}

export interface Timed {
  /** Milliseconds the operation took (wall clock, for the console and the CLI's message). */
  ms: number;
}

interface Saved {
  /** Absent until a snapshot found only on disk is first restored. */
  frozen?: FrozenState;
  info: SnapshotInfo;
}

export interface SnapshotShelfOptions {
  /** Where snapshots are also written (FILE.snapshots), or undefined for memory only. */
  dir?: string;
  /** The whole state now (DataStore.freeze, rider included). */
  freeze: () => FrozenState;
  /** Goes back to a frozen state (DataStore.thaw, and the rider's part). */
  thaw: (frozen: FrozenState) => void;
  /** Replaces the state with a state file's data (a snapshot read from disk). */
  load: (data: StateData) => void;
  /** The state a reset goes back to: the seeded demo data. */
  fresh: () => FrozenState;
  /** What a reset restarts besides the state: report ids and the numbering of webhook events. */
  restartRun: () => void;
  now: () => number;
}

export class SnapshotShelf {
  readonly #saved = new Map<string, Saved>();

  constructor(private readonly o: SnapshotShelfOptions) {}

  save(name: string): SnapshotInfo & Timed {
    const started = performance.now();
    const frozen = this.o.freeze();
    const info: SnapshotInfo = { name, saved_at: this.o.now(), campaigns: frozen.campaigns.size };
    if (this.o.dir) {
      mkdirSync(this.o.dir, { recursive: true, mode: 0o700 });
      const path = join(this.o.dir, `${name}.json`);
      saveState(path, stateDataOf(frozen));
      info.bytes = statSync(path).size;
    }
    this.#saved.set(name, { frozen, info });
    return { ...info, ms: performance.now() - started };
  }

  /** Undefined when no snapshot has that name. */
  restore(name: string): (SnapshotInfo & Timed) | undefined {
    const started = performance.now();
    const saved = this.#saved.get(name) ?? this.#fromDisk(name);
    if (!saved) return undefined;
    if (saved.frozen) this.o.thaw(saved.frozen);
    else {
      this.o.load(this.#read(name)!);
      saved.frozen = this.o.freeze();
    }
    return { ...saved.info, ms: performance.now() - started };
  }

  reset(): Timed {
    const started = performance.now();
    this.o.thaw(this.o.fresh());
    this.o.restartRun();
    return { ms: performance.now() - started };
  }

  list(): SnapshotInfo[] {
    const names = new Set(this.#saved.keys());
    if (this.o.dir && existsSync(this.o.dir)) {
      for (const file of readdirSync(this.o.dir)) if (file.endsWith('.json') && SNAPSHOT_NAME.test(file.slice(0, -5))) names.add(file.slice(0, -5));
    }
    return [...names].sort().flatMap((name) => {
      const saved = this.#saved.get(name) ?? this.#fromDisk(name);
      return saved ? [saved.info] : [];
    });
  }

  /** A snapshot saved by an earlier run: its info now, its state when first restored. */
  #fromDisk(name: string): Saved | undefined {
    const path = this.#path(name);
    if (!path || !existsSync(path)) return undefined;
    const data = this.#read(name)!;
    const saved = { info: { name, bytes: statSync(path).size, saved_at: this.o.now(), campaigns: data.campaigns.length } };
    this.#saved.set(name, saved);
    return saved;
  }

  #read(name: string): StateData | undefined {
    const path = this.#path(name);
    return path ? (JSON.parse(readFileSync(path, 'utf8')) as StateData) : undefined;
  }

  #path(name: string): string | undefined {
    return this.o.dir && SNAPSHOT_NAME.test(name) ? join(this.o.dir, `${name}.json`) : undefined;
  }
}
