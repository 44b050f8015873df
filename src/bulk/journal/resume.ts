// --resume: the results of an earlier run (NDJSON, JSON or CSV, as this command writes
// them) -> the rows that already succeeded, by row key (row-identity.ts), with their ids.
// Results name a patch row's resource, so its key is known; they do not say what a create
// row was (only the id it created), so a create is resumed from its journal only.
import fs from 'node:fs';
import readline from 'node:readline';
import { UsageError } from '../../base/errors.js';
import { occurrenceKey } from '../row-identity.js';

export async function readSucceeded(file: string, mode: 'create' | 'patch'): Promise<Map<string, string>> {
  if (!fs.existsSync(file)) throw new UsageError(`--resume: no such file ${file}`);
  if (mode === 'create') {
    throw new UsageError(`--resume: ${file} holds results, which do not say which input row created what; resume a create from its journal (--resume JOURNAL)`);
  }
  const first = fs.readFileSync(file, { encoding: 'utf8', flag: 'r' }).slice(0, 1);
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
      for (const row of JSON.parse(fs.readFileSync(file, 'utf8')) as Array<Record<string, unknown>>) take(row);
    } else if (first === '{') {
      const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
      for await (const line of lines) if (line.trim()) take(JSON.parse(line) as Record<string, unknown>);
    } else {
      const { parse } = await import('csv-parse');
      for await (const row of fs.createReadStream(file).pipe(parse({ columns: true, bom: true }))) take(row as Record<string, unknown>);
    }
  } catch (error) {
    throw new UsageError(`--resume: ${file} is not a results file of this command (${(error as Error).message})`);
  }
  if (rows > 0 && withResult === 0)
    throw new UsageError(`--resume: ${file} is not a results file of this command (no result column): give its journal or its results`);
  return done;
}
