// --resume: the results of an earlier run (NDJSON, JSON or CSV, as this command writes
// them) -> the rows that already succeeded, by row key (row-identity.ts), with their ids.
// Results name a patch row's resource, so its key is known; they do not say what a create
// row was (only the id it created), so a create is resumed from its journal only.
import fs from 'node:fs';
import { StateFileError, UsageError } from '../../base/errors.js';
import { createStateFileStream, openStateFile, readStateFile, STATE_FILE_LIMITS, type StateFileOptions } from '../../base/state-file.js';
import { boundedLines, overlongLine } from '../../base/bounded-lines.js';
import { occurrenceKey } from '../row-identity.js';

/**
 * Results files are regular files the user named (a link is followed): NDJSON and CSV are
 * streamed (up to a journal's 2 GiB), a JSON array is read whole (up to 256 MiB).
 */
const streamed: StateFileOptions = { what: '--resume:', maxBytes: STATE_FILE_LIMITS.journal, followLinks: true };
const whole: StateFileOptions = { ...streamed, maxBytes: STATE_FILE_LIMITS.wholeResults };

export async function readSucceeded(file: string, mode: 'create' | 'patch'): Promise<Map<string, string>> {
  const opened = openStateFile(file, streamed);
  if (!opened) throw new UsageError(`--resume: no such file ${file}`);
  let first: string;
  try {
    const head = Buffer.alloc(4);
    first = head
      .subarray(0, fs.readSync(opened.fd, head, 0, 4, 0))
      .toString('utf8')
      .slice(0, 1);
  } finally {
    fs.closeSync(opened.fd);
  }
  if (mode === 'create') {
    throw new UsageError(`--resume: ${file} holds results, which do not say which input row created what; resume a create from its journal (--resume JOURNAL)`);
  }
  const done = new Map<string, string>();
  const seen = new Map<string, number>();
  /** Rows read, and those with a result: a file with rows and no results is some other file (an input CSV). */
  let rows = 0;
  let withResult = 0;
  const take = (row: Record<string, unknown>) => {
    rows++;
    if (row.result !== undefined) withResult++;
    if (typeof row.id !== 'string' || !row.id) return;
    // The n-th result of an id is the n-th row of that id in the earlier input.
    const n = (seen.get(row.id) ?? 0) + 1;
    seen.set(row.id, n);
    const succeeded = row.result === 'ok' || (row.result === 'skipped' && row.error_code === 'AlreadyApplied');
    if (succeeded) done.set(occurrenceKey(row.id, n), row.id);
  };
  try {
    if (first === '[') {
      for (const row of JSON.parse(readStateFile(file, whole) ?? '[]') as Array<Record<string, unknown>>) take(row);
    } else if (first === '{') {
      let number = 0;
      for await (const line of boundedLines(createStateFileStream(file, streamed))) {
        number++;
        if (line === undefined) throw new Error(overlongLine(number));
        if (line.trim()) take(JSON.parse(line) as Record<string, unknown>);
      }
    } else {
      const { parse } = await import('csv-parse');
      for await (const row of createStateFileStream(file, streamed).pipe(parse({ columns: true, bom: true }))) take(row as Record<string, unknown>);
    }
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    throw new UsageError(`--resume: ${file} is not a results file of this command (${(error as Error).message})`);
  }
  if (rows > 0 && withResult === 0)
    throw new UsageError(`--resume: ${file} is not a results file of this command (no result column): give its journal or its results`);
  return done;
}
