// Files written under another name beside their own and renamed once whole (report downloads,
// plans, the webhook inbox): a reader of FILE never finds half of one.

import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** The hidden name beside `file` that it is written under until it is whole: `.FILE.<id>.part`. */
export function partPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.part`);
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
