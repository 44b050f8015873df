import { UsageError } from '../base/errors.js';

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
