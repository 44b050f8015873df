// `platform help accessibility`: accessible mode, for screen readers and braille displays.
import { table, type HelpTopic } from './topic.js';

const ways: Array<[string, string]> = [
  ['--accessible', 'on one command line'],
  ['PLATFORM_ACCESSIBLE=1', 'in the environment (0 turns it off, over the profile)'],
  ['platform config set accessible true', "in the profile's settings"],
];

const text = `Accessible mode: output for screen readers and braille displays, read once, in order, and never redrawn. Turn it on in any of these ways (the first that says wins):

${table(ways)}

In accessible mode:

  - Nothing is redrawn and the cursor is never moved: no carriage returns, no erased lines. The progress of a bulk run is a whole line every few seconds, "Progress: 40% (400 of 1000 rows, 0 failed, ETA 12s)"; a download's too.
  - No spinners: a command that waits prints a line when it starts ("... (working...)"), then a line each time what it waits for changes.
  - Tables are records: one "Header: value" line per column, a blank line between records, every value whole; an empty value is said as (none). -o json, ndjson, csv and text are unchanged.
  - Prompts are numbered choices ("1) Yes", "2) No"), answered by typing the number and Enter; a secret is typed unseen and ended with Enter.

Colour never carries meaning alone: results, statuses and errors are words (ok, failed, conflict). Colours are off with --no-color, NO_COLOR (set and not empty) or TERM=dumb, and on even in a pipe with FORCE_COLOR or CLICOLOR_FORCE (FORCE_COLOR=0 turns them off).
`;

export const accessibilityTopic: HelpTopic = {
  name: 'accessibility',
  summary: 'Accessible mode for screen readers: no redraws, records, numbered prompts',
  text: () => text,
};
