// What may stand in a URL path segment as an id. Checked before anything is sent (a flag,
// an argument, a CSV cell or a JSON field), so no id can change the path: `..` would climb
// a level, an empty id would drop one, control characters would reach logs raw.
import { loneSurrogateProblem } from './text.js';

/** Longest id accepted; the API's ids are UUIDs (36 characters). */
export const MAX_ID_LENGTH = 256;

/** Why a value cannot be an id, or undefined when it can. */
export function idProblem(value: string): string | undefined {
  if (value.trim() === '') return 'is empty';
  if (value === '.' || value === '..') return `"${value}" is not an id`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return 'contains a control character';
  if (value.length > MAX_ID_LENGTH) return `is ${value.length} characters long (at most ${MAX_ID_LENGTH})`;
  // It could not be percent-encoded into the path (encodeURIComponent throws).
  return loneSurrogateProblem(value);
}
