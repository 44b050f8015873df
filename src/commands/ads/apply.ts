import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { PlannedRow } from '../../bulk/pipeline.js';
import { readPlanHeader, readPlanRows } from '../../bulk/plan.js';
import type { Invocation } from '../spec.js';
import { resourceNamed, sendPlanned } from './replay.js';
import type { ApplyFlags } from './spec.js';

export async function run(ctx: Context, flags: ApplyFlags, args: string[], invocation: Invocation): Promise<void> {
  const file = args[0]!;
  const header = await readPlanHeader(file);
  await sendPlanned(ctx, flags, {
    argv: invocation.argv,
    resource: resourceNamed(header.resource, file),
    mode: header.mode,
    scope: header.scope,
    rows: planned(file, header.mode),
  });
}

/** The plan's rows as the pipeline takes them: a patch row is sent only while its resource has the plan's current values. */
async function* planned(file: string, mode: 'create' | 'patch'): AsyncGenerator<PlannedRow> {
  for await (const row of readPlanRows(file)) {
    if (mode === 'patch' && !row.current) throw new UsageError(`${file}: line ${row.planLine}: a patch row needs the current values it was planned against`);
    yield {
      line: row.line,
      request: row.request,
      ...(row.campaign_id ? { campaignId: row.campaign_id } : {}),
      ...(row.current ? { expect: { current: row.current } } : {}),
    };
  }
}
