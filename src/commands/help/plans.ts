// `platform help plans`: review a change as a plan file, then send exactly that with `ads apply`.
import type { HelpTopic } from './topic.js';

export const plansTopic: HelpTopic = {
  name: 'plans',
  summary: 'Review a change as a plan, then ads apply',
  text: () => `Plans: a create or patch with --dry-run --plan FILE writes what it would send; platform ads apply FILE sends exactly that, later, once reviewed.

A plan is NDJSON: a header naming the API origin, account and profile it was made with, then per row the current values read, the values to write, the request, and the Idempotency-Key of the request it goes in.

The whole plan is checked first, and refused (exit 2, nothing sent):
  - a line changed since it was made (every line is sealed with a SHA-256), naming the first;
  - a request that is not what its write and id give, naming its line;
  - a plan made against another origin (base URL) or account (--retarget applies it here: every row is read again here first, and one that differs from the plan is reported conflict; --account names the account to apply it to, default the plan's);
  - a plan of version 1.
apply prints the plan's hash, plan sha256:HEX (the SHA-256 of the file).

Each row is read again first: a row whose resource changed since the plan in any field the row sets is not sent and is reported conflict with both values (exit 1; --force sends it). A row that already has its new values is unchanged. --dry-run shows the plan against the current state as a table.

It runs like any bulk run: journaled, resumable with --resume JOURNAL, kept in platform ads runs list (platform help bulk).

A plan fixes its requests and their keys (the dry run's --batch-size): a --batch-size given to apply must be the plan's. Shards of a plan split it by request.

A plan is applied once: its rows go in the plan's requests under the plan's keys at every apply, so the API answers a repeat with its first answer, whichever profile or machine sends it. An apply that ended well (exit 0) is kept in the ledger of applied plans ($XDG_STATE_HOME/platform/plans/, which runs prune keeps), and applying that plan again is refused naming when and by which run (exit 2). An apply that stopped (killed, failed) goes on with its run when applied again (same profile and --shard): the rows it applied are skipped (AlreadyApplied).

--again applies the changes once more: it makes a new plan from it (written beside it) with new idempotency keys and sends that; it asks first (--yes, needed without a terminal, does not ask).
`,
};
