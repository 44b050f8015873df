// What a report job was asked for (type, unit, range, columns), kept in the state folder when
// this machine creates it: the API's status answer does not carry it, and `reports get` shows
// it and `reports download` names the file after it. One small JSON file per report id;
// a report created elsewhere simply has none. Records of jobs older than RECORD_DAYS go when a
// new one is written, so an hourly cron job does not leave thousands of files behind.
import fs from 'node:fs';
import path from 'node:path';
import { partPath } from '../../../base/part-file.js';
import { readStateFile, STATE_FILE_LIMITS } from '../../../base/state-file.js';
import type { Context } from '../../../context.js';
import { parseRfc3339, type CheckedReport } from '../../../schemas/reports.js';
import { safeFileName } from './save.js';
import { folderNames } from '../../../base/folder-names.js';

export interface NotedReport {
  report_id: string;
  account: string;
  report_type: string;
  time_unit: string;
  start_time: string;
  end_time: string;
  columns: string[];
}

/** How long a job's record is kept: its range and name are wanted while its file is fetched, not for ever. */
export const RECORD_DAYS = 90;

const folder = (ctx: Pick<Context, 'paths'>) => path.join(ctx.paths.state, 'reports');
const fileOf = (ctx: Pick<Context, 'paths'>, id: string) => path.join(folder(ctx), `${safeFileName(id)}.json`);

/** Remembers the job; a state folder that cannot be written costs only the name and range later (said on stderr). */
export function recordReport(
  ctx: Context,
  id: string,
  account: string,
  checked: CheckedReport,
  request: { time_range: { start_time: string; end_time: string } },
): void {
  const record: NotedReport = {
    report_id: id,
    account,
    report_type: checked.type.name,
    time_unit: checked.unit,
    start_time: request.time_range.start_time,
    end_time: request.time_range.end_time,
    columns: checked.columns,
  };
  const file = fileOf(ctx, id);
  try {
    fs.mkdirSync(folder(ctx), { recursive: true, mode: 0o700 });
    // Written whole under a hidden name, then renamed: a reader never sees half a record.
    const part = partPath(file);
    fs.writeFileSync(part, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    fs.renameSync(part, file);
    // Measured against the new record's own time: the file system's clock, as the other records'.
    pruneRecords(folder(ctx), fs.statSync(file).mtimeMs - RECORD_DAYS * 24 * 3600 * 1000);
  } catch (error) {
    ctx.info(`Could not note report ${id} in ${folder(ctx)} (${(error as NodeJS.ErrnoException).code ?? String(error)}); reports get will not show its range`);
  }
}

/** Removes the records (and leftover partial files) last written before `before`; one that cannot be read or removed stays. */
function pruneRecords(dir: string, before: number): void {
  for (const name of folderNames(dir)) {
    const file = path.join(dir, name);
    try {
      const stat = fs.lstatSync(file);
      if (stat.isFile() && stat.mtimeMs < before) fs.rmSync(file);
    } catch {
      // Gone meanwhile (another process pruned it), or not ours to remove: left.
    }
  }
}

/** The record of a job this machine created in `account`, or undefined (created elsewhere, or unreadable). */
export function readRecord(ctx: Context, id: string, account: string): (NotedReport & { start: number; end: number }) | undefined {
  let text: string | undefined;
  try {
    text = readStateFile(fileOf(ctx, id), { what: 'report record', maxBytes: STATE_FILE_LIMITS.small });
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    const record = JSON.parse(text) as Partial<NotedReport>;
    const start = typeof record.start_time === 'string' ? parseRfc3339(record.start_time) : undefined;
    const end = typeof record.end_time === 'string' ? parseRfc3339(record.end_time) : undefined;
    if (record.report_id !== id || record.account !== account || typeof record.report_type !== 'string' || typeof record.time_unit !== 'string')
      return undefined;
    if (start === undefined || end === undefined) return undefined;
    return { ...(record as NotedReport), columns: Array.isArray(record.columns) ? record.columns : [], start, end };
  } catch {
    return undefined;
  }
}
