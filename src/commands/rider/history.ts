// `platform rider history [--limit N] [--offset N]`: past and current trips, newest first.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { historyView } from '../../output/views/rider.js';
import { writeRows } from '../../output/rows.js';
import { HISTORY_MAX_LIMIT } from '../../schemas/rider.js';
import type { RiderHistoryFlags } from './spec.js';

export async function run(ctx: Context, flags: RiderHistoryFlags): Promise<void> {
  if (flags.limit !== undefined && (flags.limit < 1 || flags.limit > HISTORY_MAX_LIMIT)) throw new UsageError(`--limit must be from 1 to ${HISTORY_MAX_LIMIT}`);
  if (flags.offset !== undefined && flags.offset < 0) throw new UsageError('--offset must be 0 or more');
  const client = await ctx.client();
  const page = await client.rider.history({ limit: flags.limit, offset: flags.offset });
  await writeRows(ctx, historyView, page.history);
  const shown = page.offset + page.history.length;
  if (shown < page.count) ctx.info(`${page.count - shown} more: add --offset ${shown}`);
}
