// The one way an id enters a URL path: checked (src/schemas/ids.ts), then percent-encoded,
// so that `/`, `?`, `#` or `%` in an id stay inside its segment.
import { UsageError } from '../base/errors.js';
import { idProblem } from '../schemas/ids.js';

/** `what` names the id for the message, e.g. "account id". Commands check their flags first; this is the last line. */
export function pathSegment(value: string, what: string): string {
  const problem = idProblem(value);
  if (problem) throw new UsageError(`${what} ${problem}; nothing was sent`);
  return encodeURIComponent(value);
}
