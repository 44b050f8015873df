// `webhooks listen --inspect`: where the inbox keeps its deliveries (the config folder, one
// file per profile) and starting its page beside the receiver.
import path from 'node:path';
import type { Context } from '../../context.js';
import { StateFileError, UsageError } from '../../base/errors.js';
import type { ForwardRoutes } from '../../webhooks/forward-routes.js';
import type { NamedSecret } from '../../webhooks/diagnose.js';
import type { Inbox } from '../../webhooks/inbox/server.js';
import { VERSION } from '../../base/version.js';

export async function inboxFileOf(ctx: Context): Promise<string> {
  const { name } = await ctx.profile();
  return path.join(ctx.paths.inbox, `inbox-${name.replace(/[^\w.-]/g, '_')}.ndjson`);
}

export interface InboxSettings {
  host: string;
  port: number;
  file: string;
  /** The receiver's secret: the one the verdicts shown were made with. */
  secret: NamedSecret;
  routes: ForwardRoutes;
  listenUrl: string;
  forwardTimeoutMs: number;
}

export async function openInbox(ctx: Context, s: InboxSettings): Promise<Inbox> {
  const [{ InboxStore }, { startInbox }] = await Promise.all([import('../../webhooks/inbox/store.js'), import('../../webhooks/inbox/server.js')]);
  let store;
  try {
    store = new InboxStore(s.file);
  } catch (error) {
    if (error instanceof StateFileError) throw new UsageError(`--inspect: ${error.message}`);
    throw new UsageError(`--inspect: cannot open the inbox file ${s.file}: ${(error as Error).message}`);
  }
  try {
    return await startInbox({
      host: s.host,
      port: s.port,
      store,
      secret: s.secret,
      routes: s.routes,
      listenUrl: s.listenUrl,
      testCommand: `platform webhooks trigger requests.status_changed --to ${s.listenUrl}`,
      forwardTimeoutMs: s.forwardTimeoutMs,
      version: VERSION,
      now: () => ctx.clock.now(),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--inspect-port ${s.port} is in use; give another (0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`--host ${s.host} is not an address of this machine`);
    throw error;
  }
}
