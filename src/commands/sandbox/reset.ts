// `platform sandbox reset`: put the running sandbox back to its seeded demo data.
import type { Context } from '../../context.js';
import { consoleApi } from './state.js';
import type { SandboxSnapshotFlags } from './spec.js';

export async function run(ctx: Context, flags: SandboxSnapshotFlags): Promise<void> {
  const api = await consoleApi(ctx, flags.url);
  const done = await api.reset();
  ctx.info(`Reset the sandbox to its seeded data in ${Math.round(done.ms)} ms`);
}
