// `platform sandbox snapshot save NAME`: keep the running sandbox's whole state under NAME.
import type { Context } from '../../context.js';
import { checkName, consoleApi } from './state.js';
import type { SandboxSnapshotFlags } from './spec.js';

export async function run(ctx: Context, flags: SandboxSnapshotFlags, [name = '']: string[]): Promise<void> {
  const api = await consoleApi(ctx, flags.url);
  const done = await api.save(checkName(name));
  // Bytes only for a snapshot written to a file (--state): one in memory shares the live state.
  const file = done.bytes === undefined ? '' : `, ${done.bytes} bytes on disk`;
  ctx.info(`Saved snapshot ${name} (${done.campaigns ?? 0} campaigns${file}) in ${Math.round(done.ms)} ms`);
}
