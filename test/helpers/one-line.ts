// "One line, always": what a refused command says on stderr is one line, followed only for a
// flag or argument error by the usage hint (commander's "Usage: ..." and "Run `... --help`",
// or the usage line a UsageError carries).
import { expect } from 'vitest';

const USAGE_HINT = /^Usage: [^\n]+\n(Run `[^`\n]+ --help` for its flags and examples\.\n)?$/;

/** Fails unless `stderr` is exactly one line, or one line and then the usage hint. */
export function expectOneLine(stderr: string): void {
  const end = stderr.indexOf('\n');
  const rest = stderr.slice(end + 1);
  const one = end > 0 && !/[\r\u2028\u2029]/.test(stderr.slice(0, end)) && (rest === '' || USAGE_HINT.test(rest));
  expect(one, `stderr is one line (or one line and the usage hint), not:\n${stderr}`).toBe(true);
}
