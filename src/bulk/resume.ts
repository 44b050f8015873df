// --resume: the results of an earlier run (NDJSON, JSON or CSV, as this command writes
// them) -> the lines that already succeeded, with their ids.
import fs from 'node:fs';
import readline from 'node:readline';
import { UsageError } from '../errors.js';

export async function readSucceeded(file: string): Promise<Map<number, string>> {
  if (!fs.existsSync(file)) throw new UsageError(`--resume: no such file ${file}`);
  const first = fs.readFileSync(file, { encoding: 'utf8', flag: 'r' }).slice(0, 1);
  const done = new Map<number, string>();
  const take = (row: Record<string, unknown>) => {
    const line = Number(row.line);
    const succeeded = row.result === 'ok' || (row.result === 'skipped' && row.error_code === 'AlreadyApplied');
    if (Number.isInteger(line) && succeeded) done.set(line, typeof row.id === 'string' ? row.id : '');
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
  return done;
}
