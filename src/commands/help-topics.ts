// The help topics: reference pages that are not commands (`platform help bulk`), one file
// each in help/. `platform --help` lists them, `platform help TOPIC` prints one, and the
// shell completions offer their names after `platform help`.
import { accessibilityTopic } from './help/accessibility.js';
import { bulkTopic } from './help/bulk.js';
import { csvTopic } from './help/csv.js';
import { environmentTopic } from './help/environment.js';
import { exitCodesTopic } from './help/exit-codes.js';
import { globalsTopic } from './help/globals.js';
import { loginTopic } from './help/login.js';
import { patchTopic } from './help/patch.js';
import { plansTopic } from './help/plans.js';
import { reportsTopic } from './help/reports.js';
import { sandboxTopic } from './help/sandbox.js';
import type { HelpTopic } from './help/topic.js';
import { webhooksTopic } from './help/webhooks.js';

export type { HelpTopic };

/** `platform help [command...]`, as listed in --help and offered by the completions. */
export const HELP_COMMAND = { name: 'help', summary: 'Help for a command, or a topic (below)' };

export const helpTopics: readonly HelpTopic[] = [
  globalsTopic,
  loginTopic,
  bulkTopic,
  patchTopic,
  csvTopic,
  plansTopic,
  reportsTopic,
  webhooksTopic,
  sandboxTopic,
  exitCodesTopic,
  environmentTopic,
  accessibilityTopic,
];
