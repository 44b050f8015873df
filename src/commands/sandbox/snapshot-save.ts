// `platform sandbox snapshot save NAME`: keep the running sandbox's whole state under NAME.
import type { Context } from '../../context.js';
import { checkName, consoleApi } from './state.js';
import type { SandboxSnapshotFlags } from './spec.js';

export async function run(ctx: Context, flags: SandboxSnapshotFlags, [name = '']: string[]): Promise<void> {
  const api = await consoleApi(ctx, flags.url);
  const done = await api.save(checkName(name));
  ctx.info(`Saved snapshot ${name} (${done.campaigns ?? 0} campaigns, ${done.bytes ?? 0} bytes) in ${Math.round(done.ms)} ms`);
}
