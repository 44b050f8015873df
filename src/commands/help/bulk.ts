// `platform help bulk`: how every ads create and patch runs, and its run flags in full.
import { MAX_BATCH_ITEMS } from '../../schemas/limits.js';
import { table, type HelpTopic } from './topic.js';

const flags: Array<[string, string]> = [
  ['--from-csv FILE', 'read rows from a CSV file (- for stdin); its columns: platform help csv'],
  ['--from-json FILE', 'read API body items from a JSON array or NDJSON file (- for stdin) instead of flags'],
  ['--dry-run', 'validate, look up the current values and print what would change; send no write; exit as the run would (1: a row would not be applied)'],
  [
    '--plan FILE',
    'with --dry-run: also write the plan (current and new values, requests) to FILE, to send with platform ads apply FILE; written only once the dry run has gone through every row (platform help plans)',
  ],
  ['--skip-invalid', 'send the valid rows even when some are invalid (they are reported as invalid)'],
  ['--batch-size N', `rows per request (default 500; max ${MAX_BATCH_ITEMS}, enforced by the API)`],
  ['--concurrency N', 'requests in flight at once (default 4; max 16)'],
  ['--max-rate N', 'send at most N requests per second (below what a rate limit allows; 0.5 = one every 2 s)'],
  ['--resume JOURNAL', 'finish an earlier run: its journal (printed when it started), or its NDJSON, JSON or CSV results'],
  ['--journal FILE', 'keep the journal of this run here (default: $XDG_STATE_HOME/platform/runs/, kept as its history until platform ads runs prune)'],
  ['--shard I/N', 'take only shard I of N (0 to N-1) of the input, by resource id (a create: by content); N runs cover every row once'],
  ['--force', 'apply and runs undo: send rows whose resource changed since (reported conflict without it)'],
];

export const bulkTopic: HelpTopic = {
  name: 'bulk',
  summary: 'How ads creates and patches run, and resume',
  text: () => `Bulk runs: every ads create and patch (campaigns, ad groups, ads), apply and runs undo.

Rows come from flags (one item), --from-csv or --from-json. Every row is validated before anything is sent: with any invalid row nothing is sent (exit 2) unless --skip-invalid.

Results: one per row, in input order (line, id, result ok|unchanged|failed|invalid|skipped|conflict, error_code, error_message); exit 0 when all succeeded or were unchanged, 1 when any failed.

Ctrl-C stops sending, lets requests in flight finish, reports the rest as skipped and exits 130, naming the command that finishes the run (--resume JOURNAL).

A dry run's table shows amounts as decimals and statuses by their short names; its JSON and CSV keep the API's exact values; it exits as the run would (1 when a row would not be applied: invalid, not found, or changed since its plan).

Every run that changed something keeps its journal, with the values it replaced:
platform ads runs list, show, undo and prune.

Run flags:

${table(flags)}

See also: platform help patch (what a patch changes), platform help csv (the CSV columns), platform help plans (--dry-run --plan, then platform ads apply).
`,
};
