// One run at a time per journal: two runs resuming (or writing) the same journal would both
// send its unfinished rows. The lock is a file beside the journal, created whole and
// atomically (written under a unique name, then hard-linked into place), naming its holder;
// a lock whose process is gone (a run killed with SIGKILL cannot remove its own) is taken over.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { StateFileError, UsageError } from '../../base/errors.js';
import { isRunning, processStart } from '../../base/process-alive.js';
import { readStateFile, STATE_FILE_LIMITS } from '../../base/state-file.js';

export interface Holder {
  pid: number;
  started: string;
  /** The holder's start time (processStart), when it could be read: a reused pid is not the holder. */
  since?: string;
  /** The holder is a `runs undo` of the run, not the run itself. */
  undo?: true;
}

export interface JournalLock {
  release(): void;
}

/** Takes the lock of `journal`, or throws a UsageError naming the run that holds it (`flag`: the flag that named the journal). */
export function lockJournal(journal: string, flag: string, now: Date): JournalLock {
  return takeLock(`${journal}.lock`, now, (holder) => inUse(flag, journal, holder));
}

/** Takes the lock at `lockPath`, or throws the error `held` makes of the live process that holds it (`as`: what this holder is, kept in the lock). */
export function takeLock(lockPath: string, now: Date, held: (holder: Holder | undefined) => Error, as: Pick<Holder, 'undo'> = {}): JournalLock {
  const holder: Holder = { pid: process.pid, started: now.toISOString(), since: processStart(process.pid), ...as };
  const staging = `${lockPath}.${process.pid}.${randomUUID().slice(0, 8)}`;
  fs.mkdirSync(path.dirname(lockPath), { recursive: true, mode: 0o700 });
  fs.writeFileSync(staging, `${JSON.stringify(holder)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    // A few tries: after removing a lock whose holder is gone, another run may take it first.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(staging, lockPath);
        return { release: () => fs.rmSync(lockPath, { force: true }) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const text = readText(lockPath);
      if (text === undefined) continue; // released meanwhile
      const other = parseHolder(text);
      if (other && holds(other)) throw held(other);
      // Gone: removed only if it is still that lock (another run may have taken it over meanwhile).
      if (readText(lockPath) === text) fs.rmSync(lockPath, { force: true });
    }
    throw held(parseHolder(readText(lockPath) ?? ''));
  } finally {
    fs.rmSync(staging, { force: true });
  }
}

/**
 * The lock at `lockPath` where it can be written; none where it cannot (its folder read-only,
 * or not a folder): what it guards then goes unguarded, as it did before locks.
 */
export function takeLockIfWritable(
  lockPath: string,
  now: Date,
  held: (holder: Holder | undefined) => Error,
  as: Pick<Holder, 'undo'> = {},
): JournalLock | undefined {
  try {
    return takeLock(lockPath, now, held, as);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return undefined;
  }
}

/** Whether a live run holds the journal (a lock left by a killed one does not count). */
export function isLocked(journal: string): boolean {
  let text: string | undefined;
  try {
    text = readText(`${journal}.lock`);
  } catch {
    return false; // not a lock file (a FIFO, a link): no run holds it
  }
  const holder = parseHolder(text ?? '');
  return holder !== undefined && holds(holder);
}

function inUse(flag: string, journal: string, holder: Holder | undefined): UsageError {
  return new UsageError(`${flag}: ${journal} is in use by another run (${holderText(holder)}); wait for it to end, or stop it first`);
}

/** `pid 123, started 2026-...`: who holds a lock. */
export function holderText(holder: Holder | undefined): string {
  return holder ? `pid ${holder.pid}, started ${holder.started}` : 'another process';
}

function holds(holder: Holder): boolean {
  if (!isRunning(holder.pid)) return false;
  const since = holder.since === undefined ? undefined : processStart(holder.pid);
  return since === undefined || since === holder.since;
}

/** A lock's text (one small record); a link, FIFO or device at its path is refused (StateFileError), not read. */
function readText(file: string): string | undefined {
  try {
    return readStateFile(file, { what: 'lock file', maxBytes: STATE_FILE_LIMITS.small });
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    return undefined;
  }
}

function parseHolder(text: string): Holder | undefined {
  try {
    const holder = JSON.parse(text) as Holder;
    return Number.isInteger(holder.pid) ? holder : undefined;
  } catch {
    return undefined;
  }
}
