// `platform sandbox snapshot restore NAME`: put the running sandbox back to snapshot NAME.
import type { Context } from '../../context.js';
import { checkName, consoleApi } from './state.js';
import type { SandboxSnapshotFlags } from './spec.js';

export async function run(ctx: Context, flags: SandboxSnapshotFlags, [name = '']: string[]): Promise<void> {
  const api = await consoleApi(ctx, flags.url);
  const done = await api.restore(checkName(name));
  ctx.info(`Restored snapshot ${name} in ${Math.round(done.ms)} ms`);
}
