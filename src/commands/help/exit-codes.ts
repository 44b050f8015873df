// `platform help exit-codes`. The codes come from src/base/errors.ts, so the page cannot drift from the code.
import { EXIT } from '../../base/errors.js';
import { table, type HelpTopic } from './topic.js';

const exitCodes: Array<[number, string]> = [
  [EXIT.ok, 'success'],
  [EXIT.failure, 'failure: the API answered with an error, a webhook signature is invalid, or some rows of a bulk change failed'],
  [EXIT.usage, 'usage error: a bad flag, argument or input file; nothing was sent'],
  [EXIT.auth, 'authentication needed: no or refused credentials; the message names the `platform auth login` command to run'],
  [EXIT.interrupted, 'interrupted (Ctrl-C; a bulk run also when its stdout is closed)'],
];

export const exitCodesTopic: HelpTopic = {
  name: 'exit-codes',
  summary: 'What the exit status of a command means',
  text: () => `Exit codes of platform:\n\n${table(exitCodes)}\n\nErrors are one line on stderr; add --debug for a stack trace.\n`,
};
