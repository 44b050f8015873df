// `platform sandbox snapshot list`: the running sandbox's snapshots.
import type { Context } from '../../context.js';
import { writeRows } from '../../output/rows.js';
import { resultView } from '../../output/query.js';
import { consoleApi } from './state.js';
import type { SandboxSnapshotFlags } from './spec.js';

export async function run(ctx: Context, flags: SandboxSnapshotFlags): Promise<void> {
  const api = await consoleApi(ctx, flags.url);
  const rows = (await api.list()).map((s) => ({ name: s.name, campaigns: s.campaigns, bytes: s.bytes }));
  await writeRows(ctx, resultView(rows), rows);
}
