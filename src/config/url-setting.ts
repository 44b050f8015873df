// The addresses a profile keeps (base_url, auth_url, rider_url, download_url) and the
// variables over them: each an absolute http(s) URL, checked when stored (`config set`) and
// when read from the environment or a hand-edited file, so a bad one is one line, not "Invalid URL".
import { UsageError } from '../base/errors.js';
import { sourceText, type Sourced } from './resolve.js';

/** Why `value` cannot be an API address, or undefined when it can (a path is kept: an API behind a prefix). */
export function urlProblem(value: string): string | undefined {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || !url.hostname) return `must be an absolute http:// or https:// URL, not ${JSON.stringify(value)}`;
  if (url.username || url.password) return 'must not hold a user or password (the profile keeps its secrets apart)';
  if (url.search || url.hash) return `must not have a query or fragment, not ${JSON.stringify(value)}`;
  return undefined;
}

/** The URL's value, or a UsageError (exit 2) naming where it came from. */
export function checkedUrl(url: Sourced): string;
export function checkedUrl(url: Sourced | undefined): string | undefined;
export function checkedUrl(url: Sourced | undefined): string | undefined {
  if (!url) return undefined;
  const problem = urlProblem(url.value);
  if (problem) throw new UsageError(`${sourceText(url.source)}: ${problem}`);
  return url.value;
}
