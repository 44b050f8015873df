// `ads reports sync`: report rows at once, typed by the schema the API returns.
import type { Context } from '../../../context.js';
import { writeRows } from '../../../output/rows.js';
import { syncRowView, typedRow, type SyncRow } from '../../../output/views/reports.js';
import { reportRequest } from './query.js';
import type { SyncReportFlags } from './spec.js';

export async function run(ctx: Context, flags: SyncReportFlags): Promise<void> {
  const { request } = reportRequest(flags, 'sync', ctx.clock.now());
  const client = await ctx.client();
  const { schema, data } = await client.reports.syncReport(flags.account, request, { signal: ctx.signal });
  const written = new WeakMap<SyncRow, readonly string[]>();
  const rows = data.rows.map(({ values }) => {
    const row = typedRow(schema.columns, values);
    written.set(row, values);
    return row;
  });
  await writeRows(
    ctx,
    syncRowView(schema.columns, (row) => written.get(row)),
    rows,
  );
}
