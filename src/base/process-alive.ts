// Whether the process that left something behind (a spool, a journal's lock, a file's part) is
// still there, and removing what gone processes left.
import fs from 'node:fs';
import path from 'node:path';
import { folderNames } from './folder-names.js';

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0 only asks whether the process exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, under another user
  }
}

/**
 * When a process started, in clock ticks since boot (Linux's /proc), to tell it from a later
 * one given the same pid; undefined where that cannot be read.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its ")".
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * Removes the entries of `dir` that a process now gone left behind (a process killed with
 * SIGKILL cannot remove its own): `writerOf` reads the writer's pid from a name (0: not such
 * an entry).
 */
export function removeLeftByGone(dir: string, writerOf: (name: string) => number): void {
  for (const name of folderNames(dir)) {
    const pid = writerOf(name);
    if (!pid || pid === process.pid || isRunning(pid)) continue;
    try {
      fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    } catch {
      // another user's, or removed meanwhile: not ours to worry about
    }
  }
}
