import type { z } from 'zod';
import { shownName } from './input-limits.js';

/** `campaigns[0].budget.total` from a zod path. */
export function formatPath(path: ReadonlyArray<PropertyKey>, root = ''): string {
  let out = root;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** One line naming the offending field of the first issue, e.g. `campaigns[2].configured_status: invalid option ...`. */
export function describeZodError(error: z.ZodError, root = ''): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid input';
  if (issue.code === 'unrecognized_keys') {
    // A key may be megabytes long: shown cut, with its length.
    const keys = issue.keys.map((k) => shownName(formatPath([...issue.path, k], root)));
    return `unknown field ${keys.join(', ')}`;
  }
  const where = formatPath(issue.path, root) || root || 'body';
  return `${where}: ${issue.message}`;
}
