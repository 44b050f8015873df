// Files written under another name beside their own and renamed once whole (report downloads,
// plans): a reader of FILE never finds half of one.

import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** The hidden name beside `file` that it is written under until it is whole: `.FILE.<id>.part`. */
export function partPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.part`);
}
