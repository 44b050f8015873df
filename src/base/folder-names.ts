// The names in a folder, for the CLI's own folders of state (runs, plan notes, report records,
// temporary files): a folder that is not there, or cannot be read, holds nothing to list or prune.
import fs from 'node:fs';

export function folderNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
