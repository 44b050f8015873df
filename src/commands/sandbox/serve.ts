// `platform sandbox serve`: run the local emulator until Ctrl-C.
import type { Context } from '../../context.js';
import { CommandError, UsageError } from '../../base/errors.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET, sandboxDefaultUrl } from '../../schemas/sandbox.js';
import type { SandboxServeFlags } from './spec.js';

export async function run(ctx: Context, options: SandboxServeFlags): Promise<void> {
  if (options.timeScale !== undefined && !(options.timeScale > 0))
    throw new UsageError('--time-scale must be greater than 0, e.g. 60 runs rides a minute per second');
  if (options.webhookUrl !== undefined && !/^https?:\/\/\S+$/.test(options.webhookUrl))
    throw new UsageError(`--webhook-url must be an http:// or https:// URL, not ${JSON.stringify(options.webhookUrl)}`);
  const publicUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl);
  const { webhookAuthOf } = await import('./webhook-auth.js');
  const webhookAuth = await webhookAuthOf(ctx, options);
  const [{ startSandbox }, { parseChaos }] = await Promise.all([import('../../sandbox/index.js'), import('../../sandbox/webhooks/index.js')]);
  const chaos = options.webhookChaos === undefined ? undefined : parseChaos(options.webhookChaos);
  if (typeof chaos === 'string') throw new UsageError(chaos);
  const { parseFaultRule } = await import('../../sandbox/fault-rules.js');
  const faultRules = (options.fault ?? []).map((text) => {
    const rule = parseFaultRule(text);
    if (typeof rule === 'string') throw new UsageError(rule);
    return rule;
  });
  const defaultUrl = sandboxDefaultUrl(ctx.env);
  const port = options.port ?? Number(new URL(defaultUrl).port);
  const sandbox = await startSandbox({
    host: options.host,
    port,
    publicUrl,
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
    webhookAuth,
    chaosSeed: options.chaosSeed,
    faultRules,
    now: () => ctx.clock.now(),
    log: (line) => ctx.io.stderr.write(`${line}\n`),
  }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new CommandError(`port ${port} on ${options.host} is in use (another sandbox?): stop it, or run \`platform sandbox serve --port 0\` for a free port`);
  });
  if (!publicUrl && WILDCARD_HOSTS.includes(options.host))
    ctx.info(
      `--host ${options.host} listens on every interface; add --public-url http://NAME:${sandbox.port} so that printed and report URLs work from other machines`,
    );
  ctx.io.stdout.write(
    [
      `Sandbox listening on ${sandbox.url}${publicUrl ? ` (bound to ${options.host} port ${sandbox.port})` : ''}`,
      `Report downloads served from ${sandbox.downloadUrl}`,
      `Console: ${sandbox.url}/_sandbox/`,
      `client id: ${SANDBOX_DEMO_CLIENT_ID}`,
      `client secret: ${SANDBOX_DEMO_CLIENT_SECRET}`,
      `Try: ${tryCommand(sandbox.url, defaultUrl)}`,
      ...(sandbox.url === defaultUrl ? [] : [`Save it: platform config set base_url ${sandbox.url} --profile local`]),
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

/** A next command that works verbatim: the local profile where it points here, else the URL named. */
function tryCommand(url: string, localProfileUrl: string): string {
  return url === localProfileUrl ? 'platform ads accounts list --profile local' : `PLATFORM_BASE_URL=${url} platform ads accounts list`;
}

/** Addresses that mean "every interface": no other machine can use them in a URL. */
const WILDCARD_HOSTS = ['0.0.0.0', '::', '[::]'];

/** --public-url: an http(s) origin (scheme, host, optional port), e.g. http://devbox.local:4010. */
function checkPublicUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username || url.password)
    throw new UsageError(`--public-url must be an http:// or https:// origin such as http://devbox.local:4010, not ${JSON.stringify(value)}`);
  if (WILDCARD_HOSTS.includes(url.hostname))
    throw new UsageError(`--public-url ${value}: ${url.hostname} is no address another machine can reach; name this machine`);
  return url.origin;
}
