// What a report job was asked for (type, unit, range, columns), kept in the state folder when
// this machine creates it: the API's status answer does not carry it, and `reports get` shows
// it and `reports download` names the file after it. One small JSON file per report id;
// a report created elsewhere simply has none.
import fs from 'node:fs';
import path from 'node:path';
import { partPath } from '../../../base/part-file.js';
import { readStateFile, STATE_FILE_LIMITS } from '../../../base/state-file.js';
import type { Context } from '../../../context.js';
import { parseRfc3339, type CheckedReport } from '../../../schemas/reports.js';
import { safeFileName } from './save.js';

export interface NotedReport {
  report_id: string;
  account: string;
  report_type: string;
  time_unit: string;
  start_time: string;
  end_time: string;
  columns: string[];
}

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
  } catch (error) {
    ctx.info(`Could not note report ${id} in ${folder(ctx)} (${(error as NodeJS.ErrnoException).code ?? String(error)}); reports get will not show its range`);
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
