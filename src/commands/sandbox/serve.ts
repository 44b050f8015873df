// `platform sandbox serve`: run the local emulator until Ctrl-C.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../schemas/sandbox.js';

export interface ServeOptions {
  host: string;
  port: number;
  seed: number;
  campaigns?: number;
  state?: string;
  failRate: number;
  throttleRate: number;
  itemFailRate?: number;
  rateLimit?: number;
  latency: number;
  timeScale?: number;
  webhookUrl?: string;
  webhookChaos?: string;
}

export async function run(ctx: Context, options: ServeOptions): Promise<void> {
  if (options.timeScale !== undefined && !(options.timeScale > 0)) throw new UsageError('--time-scale must be greater than 0, e.g. 60 runs rides a minute per second');
  if (options.webhookUrl !== undefined && !/^https?:\/\/\S+$/.test(options.webhookUrl)) throw new UsageError(`--webhook-url must be an http:// or https:// URL, not ${JSON.stringify(options.webhookUrl)}`);
  const [{ startSandbox }, { parseChaos }] = await Promise.all([import('../../sandbox/index.js'), import('../../sandbox/webhooks/index.js')]);
  const chaos = options.webhookChaos === undefined ? undefined : parseChaos(options.webhookChaos);
  if (typeof chaos === 'string') throw new UsageError(chaos);
  const sandbox = await startSandbox({
    host: options.host,
    port: options.port,
    seed: options.seed,
    campaigns: options.campaigns,
    statePath: options.state,
    failRate: options.failRate,
    throttleRate: options.throttleRate,
    itemFailRate: options.itemFailRate,
    rateLimit: options.rateLimit,
    latencyMs: options.latency,
    timeScale: options.timeScale,
    webhookUrl: options.webhookUrl,
    webhookChaos: chaos,
    now: () => ctx.clock.now(),
    log: (line) => ctx.io.stderr.write(`${line}\n`),
  });
  ctx.io.stdout.write(
    [
      `Sandbox listening on ${sandbox.url}`,
      `client id: ${SANDBOX_DEMO_CLIENT_ID}`,
      `client secret: ${SANDBOX_DEMO_CLIENT_SECRET}`,
      'Try: platform ads accounts list --profile local',
      ...(options.webhookUrl ? [`Webhook events go to ${options.webhookUrl}, signed with each application's client secret`] : []),
      '',
    ].join('\n'),
  );
  try {
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await sandbox.close();
  }
}
