// Files written under another name beside their own and renamed once whole (report downloads,
// plans, the webhook inbox): a reader of FILE never finds half of one.

import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { removeLeftByGone } from './process-alive.js';

/**
 * The hidden name beside `file` that it is written under until it is whole:
 * `.FILE.<pid>-<id>.part`, the writer's pid in it so that a later writer can remove it.
 */
export function partPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${randomBytes(6).toString('hex')}.part`);
}

/**
 * Removes what writers of `file` killed before they finished (SIGKILL, a crash: nothing
 * removed their part) left beside it: each part whose writer is gone. A report download
 * retried after kills would otherwise leave a hidden copy, up to the report's size, each time.
 */
export function removeStaleParts(file: string): void {
  const prefix = `.${path.basename(file)}.`;
  removeLeftByGone(path.dirname(file), (name) => {
    const writer = name.startsWith(prefix) ? /^(\d+)-[0-9a-f]{12}\.part$/.exec(name.slice(prefix.length)) : null;
    return writer ? Number(writer[1]) : 0;
  });
}

/**
 * Flushes a written file to the disk. Called before the rename that gives it its name: without
 * it a power cut after the rename can leave FILE empty or short (the rename reaches the disk
 * before the data does), where a kill alone never could.
 */
export function syncToDisk(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether two paths name one file (the same path, or one file by two names: a link, `./`, another case). */
export function sameFile(a: string, b: string): boolean {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    const [x, y] = [fs.statSync(a), fs.statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false; // one of them does not exist (yet)
  }
}
