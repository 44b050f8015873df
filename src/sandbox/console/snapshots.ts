// Named snapshots of the whole sandbox state (`sandbox snapshot save|restore`, `reset`): the
// state file's JSON (DataStore.toData, rider included), kept in memory by name and, with
// --state FILE, also in FILE.snapshots/NAME.json so they outlive a restart. A snapshot is
// the serialized text, so later writes never reach it and a restore parses a fresh copy.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { saveState, type StateData } from '../store.js';

/** Names are file names too: letters, digits, dot, dash, underscore; not starting with a dot. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/;

export interface SnapshotInfo {
  name: string;
  bytes: number;
  /** Sandbox clock when saved, milliseconds since the epoch. */
  saved_at: number;
  campaigns: number;
}

export interface Timed {
  /** Milliseconds the operation took (wall clock, for the console and the CLI's message). */
  ms: number;
}

interface Saved {
  text: string;
  info: SnapshotInfo;
}

export interface SnapshotShelfOptions {
  /** Where snapshots are also written (FILE.snapshots), or undefined for memory only. */
  dir?: string;
  dump: () => StateData;
  load: (data: StateData) => void;
  /** The state a reset goes back to: the seeded demo data. */
  fresh: () => StateData;
  now: () => number;
}

export class SnapshotShelf {
  readonly #saved = new Map<string, Saved>();

  constructor(private readonly o: SnapshotShelfOptions) {}

  save(name: string): SnapshotInfo & Timed {
    const started = performance.now();
    const data = this.o.dump();
    const text = JSON.stringify(data);
    const info: SnapshotInfo = { name, bytes: Buffer.byteLength(text), saved_at: this.o.now(), campaigns: data.campaigns.length };
    this.#saved.set(name, { text, info });
    if (this.o.dir) {
      mkdirSync(this.o.dir, { recursive: true, mode: 0o700 });
      saveState(join(this.o.dir, `${name}.json`), data);
    }
    return { ...info, ms: performance.now() - started };
  }

  /** Undefined when no snapshot has that name. */
  restore(name: string): (SnapshotInfo & Timed) | undefined {
    const started = performance.now();
    const saved = this.#saved.get(name) ?? this.#fromDisk(name);
    if (!saved) return undefined;
    this.o.load(JSON.parse(saved.text) as StateData);
    return { ...saved.info, ms: performance.now() - started };
  }

  reset(): Timed {
    const started = performance.now();
    this.o.load(this.o.fresh());
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

  #fromDisk(name: string): Saved | undefined {
    if (!this.o.dir || !SNAPSHOT_NAME.test(name)) return undefined;
    const path = join(this.o.dir, `${name}.json`);
    if (!existsSync(path)) return undefined;
    const text = readFileSync(path, 'utf8');
    const data = JSON.parse(text) as StateData;
    const saved = { text, info: { name, bytes: Buffer.byteLength(text), saved_at: this.o.now(), campaigns: data.campaigns.length } };
    this.#saved.set(name, saved);
    return saved;
  }
}
