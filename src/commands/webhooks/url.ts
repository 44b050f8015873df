import { UsageError } from '../../errors.js';

/** An http(s) URL given on the command line, or a usage error naming the flag. */
export function checkUrl(value: string, flag: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an http:// or https:// URL, not ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http:// or https:// URL, not ${JSON.stringify(value)}`);
  return url;
}

/**
 * Webhooks commands print readable lines unless -o json/ndjson (or --json) asks for JSON:
 * their output is a verdict or a log of events, not a resource list.
 */
export function wantsJson(ctx: { globals: { output?: string } }): boolean {
  return ctx.globals.output === 'json' || ctx.globals.output === 'ndjson';
}
