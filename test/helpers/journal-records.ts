// Reading a journal's records as they stand on disk, for tests that watch a run's progress.
import fs from 'node:fs';

/** Rows a done record gives a final result: those written whole and those named by place (journal.ts, DoneRecord). */
export function doneRows(record: string): number {
  const done = JSON.parse(record) as { results: unknown[]; ok?: number[] };
  return done.results.length + (done.ok?.length ?? 0);
}

/** Rows with a final result in a journal file so far (0 before it exists); a record still being written is not counted. */
export function journaledRows(journal: string): number {
  let text: string;
  try {
    text = fs.readFileSync(journal, 'utf8');
  } catch {
    return 0;
  }
  let rows = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('{"type":"done"')) continue;
    try {
      rows += doneRows(line);
    } catch {
      // the last record, still being written
    }
  }
  return rows;
}
