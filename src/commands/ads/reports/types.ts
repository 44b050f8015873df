// `ads reports types`: the report types, their units and columns, from the built-in list (offline).
import type { Context } from '../../../context.js';
import { writeRows } from '../../../output/rows.js';
import { reportColumnView, reportTypeRow, reportTypeView } from '../../../output/views/reports.js';
import { columnsFor, REPORT_TYPES, reportType } from '../../../schemas/reports.js';
import type { ReportTypesFlags } from './spec.js';

export async function run(ctx: Context, flags: ReportTypesFlags): Promise<void> {
  const one = flags.type === undefined ? undefined : reportType(flags.type);
  if (one) {
    await writeRows(
      ctx,
      reportColumnView,
      columnsFor(one).map((c) => ({ ...c, default: one.defaultColumns.includes(c.name) })),
    );
    return;
  }
  await writeRows(
    ctx,
    reportTypeView,
    REPORT_TYPES.map((t) => reportTypeRow(t, columnsFor(t))),
  );
}
