// `platform ads ...`: every command, its flags, help and examples. Data only: command code
// loads when it runs. Each command's flags type is derived from its options here.
import { MAX_BATCH_ITEMS } from '../../schemas/limits.js';
import { AD_FIELDS, AD_GROUP_FIELDS, CAMPAIGN_FIELDS, flagsOf } from '../../schemas/ads-fields.js';
import { command, group, option, options, withoutDefaults, type FlagsOf } from '../spec.js';
import { ACCOUNT, account, paging } from './options-spec.js';
import { withAccountDefault } from './account-spec.js';
import { productsSpec } from './products/spec.js';
import { reportsSpec } from './reports/spec.js';

export { ACCOUNT };
const campaign = option({ flags: '--campaign <id>', description: 'campaign id', required: true, kind: 'id' });
const campaignOptional = option({ flags: '--campaign <id>', description: "campaign id (or each CSV row's campaign_id)", kind: 'id' });
const adGroup = option({ flags: '--ad-group <id>', description: 'ad group id', required: true, kind: 'id' });

/** The one resource a view or patch is about: its id as the argument or as this flag (add, don't rename: both are the contract). */
const campaignId = (what: string) => option({ flags: '--campaign-id <id>', description: `${what} (or give it as the argument)`, kind: 'id' });
const adGroupId = (what: string) => option({ flags: '--ad-group-id <id>', description: `${what} (or give it as the argument)`, kind: 'id' });
const adId = (what: string) => option({ flags: '--ad-id <id>', description: `${what} (or give it as the argument)`, kind: 'id' });

const ids = (noun: string) => option({ flags: '--id <list>', description: `only these ${noun} ids (comma-separated)`, kind: 'ids' });
/** --status of a list: the API has no such filter, so it is applied to each page as it is read (ads/list.ts). */
const STATUSES = ['active', 'paused'] as const;
const statusFilter = (noun: string) =>
  option({
    flags: '--status <status>',
    description: `only ${noun} of this status (filtered as the pages are read: the API has no status filter; --limit N reads on until N match)`,
    choices: STATUSES,
  });
const adStatusFilter = option({
  flags: '--status <status>',
  description: 'only ads whose ad group has this status (an ad has no status of its own; one more request reads the ad group)',
  choices: STATUSES,
});

const fromCsv = option({ flags: '--from-csv <file>', description: 'read rows from a CSV file (- for stdin)', file: true });
const fromJson = option({
  flags: '--from-json <file>',
  description: 'read API items: JSON or NDJSON (- for stdin)',
  file: true,
});
/** Bulk processing (every create and patch), without the input flags. In full: `platform help bulk` (help/bulk.ts). */
const bulkRun = options(
  option({
    flags: '--dry-run',
    description: 'print what would change; send nothing',
  }),
  option({
    flags: '--plan <file>',
    description: 'with --dry-run: write the plan to FILE',
    file: true,
  }),
  option({ flags: '--skip-invalid', description: 'send the valid rows even if some are invalid' }),
  option({ flags: '--batch-size <n>', description: `rows per request (max ${MAX_BATCH_ITEMS})`, kind: 'int', default: 500 }),
  option({ flags: '--concurrency <n>', description: 'requests in flight (max 16)', kind: 'int', default: 4 }),
  option({ flags: '--max-rate <n>', description: 'at most n requests a second (0.5: one in 2 s)', kind: 'number' }),
  option({
    flags: '--resume <journal>',
    description: 'finish an earlier run (its journal or results)',
    file: true,
  }),
  option({
    flags: '--journal <file>',
    description: 'keep the journal of this run here',
    file: true,
  }),
  option({
    flags: '--shard <i/n>',
    description: 'take only shard I of N (0 to N-1) of the rows',
  }),
);
const bulk = options(fromCsv, fromJson, ...bulkRun);

// What every create and patch shares is said once, in the help topics (src/commands/help/).
const BULK_HELP =
  'Rows come from flags (one item), --from-csv or --from-json, all validated before any is sent. In full: ' +
  'platform help bulk (results, resume, the run flags), platform help csv (CSV columns, field flags).';
const PATCH_HELP = 'Only the fields given change (platform help patch).';

/** The field flags of each write command: the field tables' (src/schemas/ads-fields.ts). */
const campaignFields = flagsOf(CAMPAIGN_FIELDS, 'create');
const adGroupFields = flagsOf(AD_GROUP_FIELDS, 'create');

const listStoresOptions = options(account, ...paging);
const listCampaignsOptions = options(account, ...paging, ids('campaign'), statusFilter('campaigns'));
const createCampaignsOptions = options(account, ...campaignFields, ...bulk);
const patchCampaignsOptions = options(account, campaignId('campaign to change'), ...withoutDefaults(flagsOf(CAMPAIGN_FIELDS, 'patch')), ...bulk);
const listAdGroupsOptions = options(account, campaign, ...paging, ids('ad group'), statusFilter('ad groups'));
const createAdGroupsOptions = options(account, campaignOptional, ...adGroupFields, ...bulk);
const patchAdGroupsOptions = options(
  account,
  campaignOptional,
  adGroupId('ad group to change'),
  ...withoutDefaults(flagsOf(AD_GROUP_FIELDS, 'patch')),
  ...bulk,
);
const listAdsOptions = options(account, campaign, adGroup, ...paging, ids('ad'), adStatusFilter);
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
const force = option({ flags: '--force', description: 'send rows changed since (else: conflict)' });
const undoOptions = options(...bulkRun, force);
/** apply: a plan fixes its requests, so --batch-size has no default (given, it must be the plan's). */
const [dryRun, planFlag, skipInvalid, , ...bulkRest] = bulkRun;
const applyOptions = options(
  dryRun,
  planFlag,
  skipInvalid,
  option({
    flags: '--batch-size <n>',
    description: "rows per request; given, it must be the plan's",
    kind: 'int',
  }),
  ...bulkRest,
  force,
  option({
    flags: '--account <id>',
    description: "apply to this account (default: the plan's)",
    kind: 'id',
  }),
  option({
    flags: '--retarget',
    description: 'apply a plan made for another origin or account',
  }),
  option({
    flags: '--again',
    description: 'apply once more, as a new plan with new keys',
  }),
  option({ flags: '-y, --yes', description: 'with --again: do not ask' }),
);
const runArg = { name: 'run', description: 'the run: its name in runs list (or its last 8 characters), or its journal', required: true } as const;
const runsListOptions = options(
  option({ flags: '-L, --limit <n>', description: 'only the newest n runs (the list is newest first)', kind: 'int' }),
  option({ flags: '--all-profiles', description: "the runs of every profile (default: the current profile's only)" }),
);
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
    summary: 'Ad accounts, campaigns, ads, reports, products',
    description: 'Ad accounts, stores, campaigns, ad groups, ads, reports and products. Ad account ids: platform ads accounts list.',
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
            description: `Create campaigns. ${BULK_HELP}`,
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
            description: `Change campaigns. ${PATCH_HELP} ${BULK_HELP}`,
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
            description: `Create ad groups in a campaign. ${BULK_HELP}`,
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
            description: `Change ad groups. ${PATCH_HELP} ${BULK_HELP}`,
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
            description: `Change ads: the API lets an ad's name change. ${PATCH_HELP} ${BULK_HELP}`,
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
          'Send exactly the requests of a plan, made by a create or patch with --dry-run --plan FILE, once reviewed. The whole plan ' +
          'is checked first (sealed lines, requests, origin and account), then each row is read again: a row changed since the plan is ' +
          'reported conflict, not sent (--force sends it). A plan is applied once; --again makes a new plan from it. It runs like any ' +
          'bulk run (platform help bulk). In full: platform help plans.',
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
