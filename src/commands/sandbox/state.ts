// What `sandbox snapshot ...` and `sandbox reset` share: the running sandbox's /_sandbox
// routes at --url, default the profile's base URL.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { SandboxConsoleApi } from '../../api/sandbox-console.js';

/** As the sandbox accepts them (console/snapshots.ts). */
const SNAPSHOT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/;

export async function consoleApi(ctx: Context, url: string | undefined): Promise<SandboxConsoleApi> {
  if (url !== undefined && !/^https?:\/\/[^\s/]+\/?$/.test(url))
    throw new UsageError(`--url must be a sandbox's base URL such as http://127.0.0.1:4010, not ${JSON.stringify(url)}`);
  const client = await ctx.client();
  return new SandboxConsoleApi(client.http, (url ?? client.http.baseUrl).replace(/\/+$/, ''), ctx.signal);
}

export function checkName(name: string): string {
  if (!SNAPSHOT_NAME.test(name)) throw new UsageError(`NAME must be 1-64 letters, digits, '.', '_' or '-', not starting with '.'; not ${JSON.stringify(name)}`);
  return name;
}
