// `platform ads ...`: every command, its flags, help and examples. Data only: command code
// loads when it runs. Each command's flags type is derived from its options here.
import { columnsHelp } from '../../bulk/input/csv-columns.js';
import { MAX_BATCH_ITEMS } from '../../schemas/limits.js';
import { AD_FIELDS, AD_GROUP_FIELDS, CAMPAIGN_FIELDS, flagsOf } from '../../schemas/ads-fields.js';
import { command, group, option, options, withoutDefaults, type FlagsOf } from '../spec.js';
import { ACCOUNT, account, paging } from './options-spec.js';
import { withAccountDefault } from './account-spec.js';
import { productsSpec } from './products/spec.js';
import { reportsSpec } from './reports/spec.js';

export { ACCOUNT };
const campaign = option({ flags: '--campaign <id>', description: 'campaign id', required: true, kind: 'id' });
const campaignOptional = option({ flags: '--campaign <id>', description: 'campaign id (required unless each CSV row has campaign_id)', kind: 'id' });
const adGroup = option({ flags: '--ad-group <id>', description: 'ad group id', required: true, kind: 'id' });

/** The one resource a view or patch is about: its id as the argument or as this flag (add, don't rename: both are the contract). */
const campaignId = (what: string) => option({ flags: '--campaign-id <id>', description: `${what} (or give it as the argument)`, kind: 'id' });
const adGroupId = (what: string) => option({ flags: '--ad-group-id <id>', description: `${what} (or give it as the argument)`, kind: 'id' });
const adId = (what: string) => option({ flags: '--ad-id <id>', description: `${what} (or give it as the argument)`, kind: 'id' });

const ids = (noun: string) => option({ flags: '--id <list>', description: `only these ${noun} ids (comma-separated)`, kind: 'ids' });

const fromCsv = option({ flags: '--from-csv <file>', description: 'read rows from a CSV file (- for stdin); see "CSV columns" below', file: true });
const fromJson = option({
  flags: '--from-json <file>',
  description: 'read API body items from a JSON array or NDJSON file (- for stdin) instead of flags',
  file: true,
});
/** Bulk processing (every create and patch), without the input flags. */
const bulkRun = options(
  option({
    flags: '--dry-run',
    description: 'validate, look up the current values and print what would change; send no write; exit as the run would (1: a row would not be applied)',
  }),
  option({
    flags: '--plan <file>',
    description:
      'with --dry-run: also write the plan (current and new values, requests) to FILE, to send with platform ads apply FILE; written only once the dry run has gone through every row',
    file: true,
  }),
  option({ flags: '--skip-invalid', description: 'send the valid rows even when some are invalid (they are reported as invalid)' }),
  option({ flags: '--batch-size <n>', description: `rows per request (max ${MAX_BATCH_ITEMS}, enforced by the API)`, kind: 'int', default: 500 }),
  option({ flags: '--concurrency <n>', description: 'requests in flight at once (max 16)', kind: 'int', default: 4 }),
  option({ flags: '--max-rate <n>', description: 'send at most n requests per second (below what a rate limit allows; 0.5 = one every 2 s)', kind: 'number' }),
  option({
    flags: '--resume <journal>',
    description: 'finish an earlier run: its journal (printed when it started), or its NDJSON, JSON or CSV results',
    file: true,
  }),
  option({
    flags: '--journal <file>',
    description: 'keep the journal of this run here (default: $XDG_STATE_HOME/platform/runs/, kept as its history until platform ads runs prune)',
    file: true,
  }),
  option({
    flags: '--shard <i/n>',
    description: 'take only shard I of N (0 to N-1) of the input, by resource id (a create: by content); N runs cover every row once',
  }),
);
const bulk = options(fromCsv, fromJson, ...bulkRun);

const BULK_HELP =
  'Rows come from flags (one item), --from-csv or --from-json. Every row is validated before anything ' +
  'is sent: with any invalid row nothing is sent (exit 2) unless --skip-invalid. Results: one per row, in ' +
  'input order (line, id, result ok|unchanged|failed|invalid|skipped, error_code, error_message); exit 0 when ' +
  'all succeeded or were unchanged, 1 when any failed. Ctrl-C stops sending, lets requests in flight finish, reports the rest ' +
  'as skipped and exits 130, naming the command that finishes the run (--resume JOURNAL). A patch changes only the ' +
  'fields given: the current resources are read first, so a budget amount keeps its unit, --end keeps the start, ' +
  '--keywords keeps the other criteria (the API replaces budget, schedule and targeting whole; the read and the ' +
  "write are not atomic); an amount without a currency is in the resource's own, and another currency is refused; " +
  'rows that only the current values can judge (these, a budget unit alone, ad_product) are checked against them ' +
  'before anything is sent, and one at fault refuses the run the same way, naming its line and id; ' +
  "a row that would change nothing is reported unchanged and not sent. A dry run's table shows amounts as decimals " +
  "and statuses by their short names; its JSON and CSV keep the API's exact values; it exits as the run would " +
  '(1 when a row would not be applied: invalid, not found, or changed since its plan).';

/** The field flags of each write command: the field tables' (src/schemas/ads-fields.ts). */
const campaignFields = flagsOf(CAMPAIGN_FIELDS, 'create');
const adGroupFields = flagsOf(AD_GROUP_FIELDS, 'create');

const listStoresOptions = options(account, ...paging);
const listCampaignsOptions = options(account, ...paging, ids('campaign'));
const createCampaignsOptions = options(account, ...campaignFields, ...bulk);
const patchCampaignsOptions = options(account, campaignId('campaign to change'), ...withoutDefaults(flagsOf(CAMPAIGN_FIELDS, 'patch')), ...bulk);
const listAdGroupsOptions = options(account, campaign, ...paging, ids('ad group'));
const createAdGroupsOptions = options(account, campaignOptional, ...adGroupFields, ...bulk);
const patchAdGroupsOptions = options(
  account,
  campaignOptional,
  adGroupId('ad group to change'),
  ...withoutDefaults(flagsOf(AD_GROUP_FIELDS, 'patch')),
  ...bulk,
);
const listAdsOptions = options(account, campaign, adGroup, ...paging, ids('ad'));
const createAdsOptions = options(account, campaign, adGroup, ...flagsOf(AD_FIELDS, 'create'), fromJson, ...bulkRun);
const patchAdsOptions = options(account, campaign, adGroup, adId('ad to change'), ...flagsOf(AD_FIELDS, 'patch'), ...bulk);

const viewCampaignOptions = options(account, campaignId('campaign to show'));
const viewAdGroupOptions = options(account, campaign, adGroupId('ad group to show'));
const viewAdOptions = options(account, campaign, adGroup, adId('ad to show'));
export type ViewCampaignFlags = FlagsOf<typeof viewCampaignOptions>;
export type ViewAdGroupFlags = FlagsOf<typeof viewAdGroupOptions>;
export type ViewAdFlags = FlagsOf<typeof viewAdOptions>;
const idArg = (noun: string, flag: string) => ({ name: 'id', description: `the ${noun} id (or ${flag})`, id: true }) as const;

export type PagingFlags = FlagsOf<typeof paging> & { id?: string[] };
export type BulkFlags = FlagsOf<typeof bulk>;

/** apply and runs undo: the bulk run's options, and --force for rows changed since. */
const force = option({ flags: '--force', description: 'send rows whose resource changed since (reported conflict without it)' });
const undoOptions = options(...bulkRun, force);
/** apply: a plan fixes its requests, so --batch-size has no default (given, it must be the plan's). */
const [dryRun, planFlag, skipInvalid, , ...bulkRest] = bulkRun;
const applyOptions = options(
  dryRun,
  planFlag,
  skipInvalid,
  option({
    flags: '--batch-size <n>',
    description: "rows per request: a plan fixes its requests and their keys (the dry run's --batch-size); given, it must be the plan's",
    kind: 'int',
  }),
  ...bulkRest,
  force,
  option({
    flags: '--account <id>',
    description: "the ad account to apply the plan to (default: the plan's; another one needs --retarget)",
    kind: 'id',
  }),
  option({
    flags: '--retarget',
    description:
      'apply a plan made against another API origin (base URL) or account here: every row is read again here first, and one that differs from the plan is reported conflict',
  }),
  option({
    flags: '--again',
    description: 'apply a plan once more: make a new plan from it (beside it) with new idempotency keys and send that; asks first (--yes without a terminal)',
  }),
  option({ flags: '-y, --yes', description: 'with --again: make and send the new plan without asking' }),
);
const runArg = { name: 'run', description: 'the run: its name in runs list (or its last 8 characters), or its journal', required: true } as const;
const runsListOptions = options(option({ flags: '-L, --limit <n>', description: 'only the newest n runs (listed oldest first, as all are)', kind: 'int' }));
const runsShowOptions = options();
const runsPruneOptions = options(
  option({ flags: '--older-than <days>', description: 'remove runs started more than DAYS days ago', kind: 'int' }),
  option({ flags: '--keep <n>', description: 'keep only the newest N runs', kind: 'int' }),
);
export type ApplyFlags = FlagsOf<typeof applyOptions>;
export type RunsListFlags = FlagsOf<typeof runsListOptions>;
export type RunsShowFlags = FlagsOf<typeof runsShowOptions>;
export type RunsUndoFlags = FlagsOf<typeof undoOptions>;
export type RunsPruneFlags = FlagsOf<typeof runsPruneOptions>;
export type ListStoresFlags = FlagsOf<typeof listStoresOptions>;
export type ListCampaignsFlags = FlagsOf<typeof listCampaignsOptions>;
export type CreateCampaignsFlags = FlagsOf<typeof createCampaignsOptions>;
export type PatchCampaignsFlags = FlagsOf<typeof patchCampaignsOptions>;
export type ListAdGroupsFlags = FlagsOf<typeof listAdGroupsOptions>;
export type CreateAdGroupsFlags = FlagsOf<typeof createAdGroupsOptions>;
export type PatchAdGroupsFlags = FlagsOf<typeof patchAdGroupsOptions>;
export type ListAdsFlags = FlagsOf<typeof listAdsOptions>;
export type CreateAdsFlags = FlagsOf<typeof createAdsOptions>;
export type PatchAdsFlags = FlagsOf<typeof patchAdsOptions>;

// Every command that declares --account resolves it (flag, PLATFORM_ACCOUNT, the profile's setting) before it runs.
export const adsSpec = withAccountDefault(
  group({
    name: 'ads',
    summary: 'Ad accounts, stores, campaigns, ad groups, ads, reports and products',
    examples: ['platform ads accounts list', `platform ads campaigns list --account ${ACCOUNT}`],
    subcommands: [
      group({
        name: 'accounts',
        summary: 'Ad accounts',
        examples: ['platform ads accounts list', 'platform ads accounts list -o csv'],
        subcommands: [
          command({
            name: 'list',
            summary: 'List the active ad accounts you can use',
            examples: ['platform ads accounts list', 'platform ads accounts list -o csv'],
            load: () => import('./accounts/list.js'),
          }),
        ],
      }),
      group({
        name: 'stores',
        summary: 'Stores of an ad account',
        examples: [`platform ads stores list --account ${ACCOUNT}`, `platform ads stores list --account ${ACCOUNT} --all -o csv > stores.csv`],
        subcommands: [
          command({
            name: 'list',
            summary: 'List the stores of an ad account',
            options: listStoresOptions,
            examples: [`platform ads stores list --account ${ACCOUNT}`, `platform ads stores list --account ${ACCOUNT} --all -o csv > stores.csv`],
            load: () => import('./stores/list.js'),
          }),
        ],
      }),
      group({
        name: 'campaigns',
        summary: 'Campaigns of an ad account',
        examples: [`platform ads campaigns list --account ${ACCOUNT}`, `platform ads campaigns patch --account ${ACCOUNT} --campaign-id ID --status paused`],
        subcommands: [
          command({
            name: 'list',
            summary: 'List campaigns (first page; --all for every page)',
            options: listCampaignsOptions,
            examples: [
              `platform ads campaigns list --account ${ACCOUNT}`,
              `platform ads campaigns list --account ${ACCOUNT} --all -o csv > campaigns.csv`,
              `platform ads campaigns list --account ${ACCOUNT} --id ID1,ID2 --json`,
            ],
            load: () => import('./campaigns/list.js'),
          }),
          command({
            name: 'view',
            summary: 'Show one campaign in full',
            args: [idArg('campaign', '--campaign-id')],
            options: viewCampaignOptions,
            examples: [`platform ads campaigns view ID --account ${ACCOUNT}`, `platform ads campaigns view ID --account ${ACCOUNT} --json`],
            load: () => import('./campaigns/view.js'),
          }),
          command({
            name: 'create',
            summary: 'Create campaigns from flags or --from-json',
            description: `Create campaigns.\n\n${BULK_HELP}`,
            details: columnsHelp('campaigns'),
            options: createCampaignsOptions,
            examples: [
              `platform ads campaigns create --account ${ACCOUNT} --name "Spring promo" --budget 50 --currency USD --budget-unit daily`,
              `platform ads campaigns create --account ${ACCOUNT} --from-json campaigns.json`,
            ],
            load: () => import('./campaigns/create.js'),
          }),
          command({
            name: 'patch',
            summary: 'Change campaigns: name, status, budget',
            args: [idArg('campaign', '--campaign-id')],
            description: `Change campaigns: only the fields given change.\n\n${BULK_HELP}`,
            details: columnsHelp('campaigns'),
            options: patchCampaignsOptions,
            examples: [
              `platform ads campaigns patch --account ${ACCOUNT} --campaign-id ID --status paused`,
              `platform ads campaigns patch ID --budget 75.50`,
              `platform ads campaigns patch --account ${ACCOUNT} --from-json changes.ndjson`,
            ],
            load: () => import('./campaigns/patch.js'),
          }),
        ],
      }),
      group({
        name: 'ad-groups',
        summary: 'Ad groups of a campaign',
        examples: [
          `platform ads ad-groups list --account ${ACCOUNT} --campaign CAMPAIGN`,
          `platform ads ad-groups patch --account ${ACCOUNT} --campaign CAMPAIGN --ad-group-id ID --status paused`,
        ],
        subcommands: [
          command({
            name: 'list',
            summary: 'List the ad groups of a campaign',
            options: listAdGroupsOptions,
            examples: [
              `platform ads ad-groups list --account ${ACCOUNT} --campaign CAMPAIGN`,
              `platform ads ad-groups list --account ${ACCOUNT} --campaign CAMPAIGN --all --json`,
            ],
            load: () => import('./ad-groups/list.js'),
          }),
          command({
            name: 'view',
            summary: 'Show one ad group in full: budget, bidding, schedule, targeting, dayparting (Monday first)',
            args: [idArg('ad group', '--ad-group-id')],
            options: viewAdGroupOptions,
            examples: [
              `platform ads ad-groups view ID --account ${ACCOUNT} --campaign CAMPAIGN`,
              `platform ads ad-groups view ID --account ${ACCOUNT} --campaign CAMPAIGN --json`,
            ],
            load: () => import('./ad-groups/view.js'),
          }),
          command({
            name: 'create',
            summary: 'Create ad groups from flags or --from-json',
            description: `Create ad groups in a campaign.\n\n${BULK_HELP}`,
            details: columnsHelp('ad_groups'),
            options: createAdGroupsOptions,
            examples: [
              `platform ads ad-groups create --account ${ACCOUNT} --campaign CAMPAIGN --name "Lunch" --store-ids STORE --bid 0.50 --currency USD --keywords pizza,pasta --match-type exact --daypart mon-fri=11:00-14:00`,
              `platform ads ad-groups create --account ${ACCOUNT} --campaign CAMPAIGN --from-json ad-groups.json`,
            ],
            load: () => import('./ad-groups/create.js'),
          }),
          command({
            name: 'patch',
            summary: 'Change ad groups: name, status, budget, bidding, targeting, schedule',
            args: [idArg('ad group', '--ad-group-id')],
            description: `Change ad groups: only the fields given change.\n\n${BULK_HELP}`,
            details: columnsHelp('ad_groups'),
            options: patchAdGroupsOptions,
            examples: [
              `platform ads ad-groups patch --account ${ACCOUNT} --campaign CAMPAIGN --ad-group-id ID --status paused`,
              `platform ads ad-groups patch ID --campaign CAMPAIGN --bid 0.75`,
            ],
            load: () => import('./ad-groups/patch.js'),
          }),
        ],
      }),
      group({
        name: 'ads',
        summary: 'Ads of an ad group',
        examples: [
          `platform ads ads list --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP`,
          `platform ads ads create --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP --name "Downtown store"`,
        ],
        subcommands: [
          command({
            name: 'list',
            summary: 'List the ads of an ad group',
            options: listAdsOptions,
            examples: [
              `platform ads ads list --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP`,
              `platform ads ads list --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP --all -o ndjson`,
            ],
            load: () => import('./ads/list.js'),
          }),
          command({
            name: 'view',
            summary: 'Show one ad',
            args: [idArg('ad', '--ad-id')],
            options: viewAdOptions,
            examples: [
              `platform ads ads view ID --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP`,
              `platform ads ads view ID --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP --json`,
            ],
            load: () => import('./ads/view.js'),
          }),
          command({
            name: 'create',
            summary: 'Create ads in an ad group',
            options: createAdsOptions,
            examples: [
              `platform ads ads create --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP --name "Downtown store"`,
              `platform ads ads create --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP --from-json ads.json`,
            ],
            load: () => import('./ads/create.js'),
          }),
          command({
            name: 'patch',
            summary: 'Rename ads (update-ads)',
            args: [idArg('ad', '--ad-id')],
            description: `Change ads: the API lets an ad's name change.\n\n${BULK_HELP}`,
            details: columnsHelp('ads'),
            options: patchAdsOptions,
            examples: [
              `platform ads ads patch --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP --ad-id ID --name "Uptown store"`,
              `platform ads ads list --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP -o csv | sed 's/Downtown/Uptown/' | platform ads ads patch --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP --from-csv -`,
            ],
            load: () => import('./ads/patch.js'),
          }),
        ],
      }),
      command({
        name: 'apply',
        summary: 'Send a plan made by a create or patch with --dry-run --plan FILE',
        description:
          'Send the requests of a plan (NDJSON: a header naming the API origin, account and profile it was made with, then per row ' +
          'the current values read, the values to write, the request, and the Idempotency-Key of the request it goes in). ' +
          'The whole plan is checked first, and refused (exit 2, nothing sent): a line changed since it was made (every line is ' +
          'sealed with a SHA-256), naming the first; a request that is not what its write and id give, naming its line; a plan ' +
          'made against another origin or account (--retarget applies it here, reading every row here first); a plan of version 1. ' +
          "It prints the plan's hash, plan sha256:HEX (the SHA-256 of the file). Each row is read again first: a row whose resource " +
          'changed since the plan in any field the row sets is not sent and is reported conflict with both values (exit 1; --force ' +
          'sends it). A row that already has its new values is unchanged. --dry-run shows the plan against the current state as a ' +
          'table. It runs like any bulk run: journaled, resumable with --resume JOURNAL, kept in platform ads runs list. A plan is ' +
          "applied once: its rows go in the plan's requests under the plan's keys at every apply, so the API answers a repeat with " +
          'its first answer, whichever profile or machine sends it; an apply that ended well (exit 0) is kept in the ledger of ' +
          'applied plans ($XDG_STATE_HOME/platform/plans/, which runs prune keeps), and applying that plan again is refused naming ' +
          'when and by which run (exit 2). An apply that stopped (killed, failed) goes on with its run when applied again (same ' +
          'profile and --shard): the rows it applied are skipped (AlreadyApplied). --again applies the changes once more, as a ' +
          'new plan with new keys. Shards of a plan split it by request.',
        args: [{ name: 'plan', description: 'the plan file', required: true }],
        options: applyOptions,
        examples: [
          `platform ads campaigns patch --account ${ACCOUNT} --from-csv changes.csv --dry-run --plan plan.ndjson`,
          'platform ads apply plan.ndjson --dry-run',
          'platform ads apply plan.ndjson',
          'platform ads apply plan.ndjson --again --yes',
          'PLATFORM_BASE_URL=http://127.0.0.1:4011 platform ads apply plan.ndjson --retarget --dry-run',
        ],
        load: () => import('./apply.js'),
      }),
      group({
        name: 'runs',
        summary: 'Write runs kept as history: list, show, undo, prune',
        examples: ['platform ads runs list', 'platform ads runs undo RUN --dry-run'],
        subcommands: [
          command({
            name: 'list',
            summary: 'List the write runs kept (when, what, how many rows, how it ended, which profile)',
            description:
              'Every create and patch (bulk or one item) that changed something keeps its journal, with the values it replaced, in $XDG_STATE_HOME/platform/runs/ until platform ads runs prune. ' +
              'STATUS: done; N failed (rows that did not succeed); interrupted (killed or stopped with rows unsent: runs show says how to finish or undo it); running; ' +
              'unknown (a journal of an earlier version).',
            options: runsListOptions,
            examples: ['platform ads runs list', 'platform ads runs list -L 10', 'platform ads runs list --json'],
            load: () => import('./runs/list.js'),
          }),
          command({
            name: 'show',
            summary: 'Show every change of a run, old -> new',
            description:
              'Each row with a result, and each row sent with no answer (result unanswered: the run was killed with it in flight, so it may have been applied). ' +
              'For an interrupted run it also says how many rows were not sent, and the commands that finish it (--resume) or undo it.',
            args: [runArg],
            options: runsShowOptions,
            examples: ['platform ads runs show RUN', 'platform ads runs show RUN -o csv > changes.csv'],
            load: () => import('./runs/show.js'),
          }),
          command({
            name: 'undo',
            summary: "Restore the values a run replaced (a create's resources are paused)",
            description:
              'Restores the old values of the rows a run changed, where the current value is still what the run wrote; ' +
              'a row changed since is reported conflict (--force restores it anyway). The API has no delete: what a create ' +
              'made is paused instead (ads, which have no status, cannot be undone). Rows a killed run sent with no answer are ' +
              'undone too where they were applied (unchanged where they were not); a run with a create sent with no answer cannot be ' +
              '(exit 2, nothing sent) until a resume of it has learnt what it created. An undone run is not resumed. An undo is a ' +
              'run itself: journaled, resumable with --resume JOURNAL, shown and undone like any other.',
            args: [runArg],
            options: undoOptions,
            examples: ['platform ads runs undo RUN --dry-run', 'platform ads runs undo RUN'],
            load: () => import('./runs/undo.js'),
          }),
          command({
            name: 'prune',
            summary: 'Remove kept runs by age or count',
            description:
              'A run still going is never removed. An interrupted one is removed only by age (--older-than): --keep leaves it, and says so, ' +
              'because without its journal it cannot be resumed (a create run again from the start would create its rows twice).',
            options: runsPruneOptions,
            examples: ['platform ads runs prune --older-than 30', 'platform ads runs prune --keep 100'],
            load: () => import('./runs/prune.js'),
          }),
        ],
      }),
      reportsSpec,
      productsSpec,
    ],
  }),
);
