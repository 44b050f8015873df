// The reports toolset: `ads reports run` (create, wait, download), its rows typed (numbers as
// numbers), sorted and cut as the command does. The command layer hands the runner in
// (commands/mcp/run.ts): the report logic stays where it is.
import * as z from 'zod';
import { UsageError } from '../../base/errors.js';
import type { Context } from '../../context.js';
import type { ReportQueryFlags } from '../../schemas/reports.js';
import { accountFor } from '../account.js';
import { capturedJson } from '../captured.js';
import { addTool, type ToolHost } from '../tool.js';

/** The flags of `ads reports run` this tool passes. */
export interface ReportQuery extends ReportQueryFlags {
  account: string;
  sort?: string[];
  limit?: number;
  timeout: string;
}

/** Runs the report and writes its rows as JSON on the context's stdout. */
export type ReportRunner = (ctx: Context, query: ReportQuery) => Promise<void>;

/** `--since: ...` -> `since: ...`: a tool's inputs are named without dashes. */
function inInputWords(error: unknown): unknown {
  if (!(error instanceof UsageError)) return error;
  return new UsageError(error.message.replace(/--([a-z]+)/g, '$1').replace(/ads reports run --unit/g, 'unit'));
}

export function addReportTools(host: ToolHost, runReport: ReportRunner): void {
  const { ctx } = host;
  addTool(host, {
    name: 'ads_reports_run',
    description: 'Run a performance report (e.g. CAMPAIGN_PERFORMANCE) over since/until or last (7d, 4w); rows typed, sorted and limited.',
    input: {
      account: z.string().optional().describe('ad account id (default: the profile default)'),
      type: z.string().describe('report type, e.g. CAMPAIGN_PERFORMANCE'),
      columns: z.array(z.string()).optional().describe("default: the type's"),
      unit: z.enum(['daily', 'weekly', 'monthly', 'summary']).optional().describe('default daily'),
      since: z.string().optional().describe('UTC date or RFC 3339 time'),
      until: z.string().optional().describe('exclusive'),
      last: z.string().optional().describe('instead of since/until: 24h, 7d, 4w, 3m'),
      filter: z.array(z.string()).optional().describe('column=value, column!=value, column=v1,v2'),
      sort: z.array(z.string()).optional().describe('COLUMN, or -COLUMN descending'),
      limit: z.number().int().min(1).optional(),
    },
    output: { rows: z.array(z.record(z.string(), z.unknown())) },
    run: async (input) => {
      const query: ReportQuery = { ...input, account: await accountFor(ctx, input.account), unit: input.unit ?? 'daily', timeout: '10m' };
      const rows = await capturedJson(ctx, (captured) => runReport(captured, query)).catch((error: unknown) => {
        throw inInputWords(error);
      });
      const list = Array.isArray(rows) ? (rows as Array<Record<string, unknown>>) : [];
      return { result: { rows: list }, summary: `${list.length} report rows (${input.type}, ${query.unit})` };
    },
  });
}
