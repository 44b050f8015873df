// `platform ads reports ...`: flags, help and examples. Data only: the report types and columns come from schemas/reports.ts (plain data, no zod).
import { METRIC_COLUMNS, REPORT_TYPE_NAMES, REPORT_TYPES, TIME_COLUMN_DEFS } from '../../../schemas/reports.js';
import { command, group, option, options, type FlagsOf } from '../../spec.js';
import { ACCOUNT, account } from '../options-spec.js';

const ALL_COLUMNS = [...new Set([...TIME_COLUMN_DEFS, ...REPORT_TYPES.flatMap((t) => t.dimensions), ...METRIC_COLUMNS].map((c) => c.name))];

const query = (units: readonly string[]) =>
  options(
    option({ flags: '--type <type>', description: 'report type (see ads reports types)', required: true, choices: REPORT_TYPE_NAMES }),
    option({
      flags: '--columns <list>',
      description: "columns in order (default: the type's, see ads reports types)",
      kind: 'list',
      completions: ALL_COLUMNS,
    }),
    option({ flags: '--unit <unit>', description: 'time unit of the rows', choices: units, default: 'daily' }),
    option({ flags: '--since <date>', description: 'start, UTC: a date (2025-01-13) or RFC 3339 time' }),
    option({ flags: '--until <date>', description: 'end, UTC, exclusive: a date or RFC 3339 time' }),
    option({
      flags: '--last <n>',
      description: 'instead of --since/--until: 24h, 7d, 4w, 3m',
    }),
    option({
      flags: '--filter <filter>',
      description: 'repeatable: column=value, column!=value, ...',
      kind: 'repeat',
    }),
  );
const asyncQuery = query(['daily', 'weekly', 'monthly', 'summary']);
// Sorting and top-N of the rows a command prints or (run --out, download) saves.
const arrange = options(
  option({ flags: '--sort <column>', description: 'repeatable: sort rows by COLUMN, -COLUMN descending', kind: 'repeat', completions: ALL_COLUMNS }),
  option({ flags: '--limit <n>', description: 'only the first n rows (after --sort)', kind: 'int' }),
);
const out = option({
  flags: '--out <file>',
  description: "write the API's CSV here (- for stdout) instead of printing rows",
  file: true,
});
const force = option({
  flags: '--force',
  description: 'replace the --out file if it exists',
});
const timeout = option({ flags: '--timeout <duration>', description: 'give up waiting after this long (90s, 30m, 2h)', default: '30m' });

const runOptions = options(account, ...asyncQuery, ...arrange, out, force, timeout);
const createOptions = options(account, ...asyncQuery);
const getOptions = options(account);
const downloadOptions = options(
  account,
  option({ flags: '--out <file>', description: 'write the CSV here (- for stdout; default: TYPE_SINCE_UNTIL.csv)', file: true }),
  ...arrange,
  force,
  option({ flags: '--wait', description: 'wait while the report is PROCESSING' }),
  timeout,
);
const syncOptions = options(account, ...query(['daily', 'hourly', 'summary']), ...arrange);
const typesOptions = options(option({ flags: '--type <type>', description: 'only this type, with its columns', choices: REPORT_TYPE_NAMES }));

export type RunReportFlags = FlagsOf<typeof runOptions>;
export type CreateReportFlags = FlagsOf<typeof createOptions>;
export type GetReportFlags = FlagsOf<typeof getOptions>;
export type DownloadReportFlags = FlagsOf<typeof downloadOptions>;
export type SyncReportFlags = FlagsOf<typeof syncOptions>;
export type ReportTypesFlags = FlagsOf<typeof typesOptions>;

const reportId = { name: 'id', description: 'the report id (report_...)', required: true, id: true } as const;
const COLUMNS = 'campaign_id,campaign_name,impressions,clicks,ad_spend';
const RANGE = '--since 2025-01-13 --until 2025-01-20';

// Dates, ranges, units, filters and how run downloads: `platform help reports` (help/reports.ts).
const DATES = 'Dates are UTC and --until is exclusive; ranges, units and filters in full: platform help reports.';

export const reportsSpec = group({
  name: 'reports',
  summary: 'Performance reports: run a report to a CSV file, or get rows at once',
  examples: [
    `platform ads reports run --account ${ACCOUNT} --type CAMPAIGN_PERFORMANCE --last 1w --unit summary --sort -ad_spend --limit 5`,
    `platform ads reports run --account ${ACCOUNT} --type CAMPAIGN_PERFORMANCE --columns ${COLUMNS} --last 7d --out week.csv`,
    `platform ads reports sync --account ${ACCOUNT} --type CAMPAIGN_PERFORMANCE --columns ${COLUMNS} ${RANGE}`,
    'platform ads reports types',
  ],
  subcommands: [
    command({
      name: 'run',
      summary: 'Create a report, wait for it, and print its rows or save its CSV',
      description:
        'Creates a report job, waits for it (polling with back-off), then prints its rows in the -o format (a table on a terminal, ' +
        'JSON when piped), or saves the CSV to --out. --sort and --limit pick the top rows either way (--sort holds the rows ' +
        'in memory, only the top N with a --limit; --limit alone stops the download after them). The range goes to stderr ' +
        `(on a terminal, above the table). --timeout and Ctrl-C print the report id and the command that waits for it again.\n\n${DATES}`,
      options: runOptions,
      examples: [
        `platform ads reports run --account ${ACCOUNT} --type CAMPAIGN_PERFORMANCE --last 1w --unit summary --sort -ad_spend --limit 5`,
        `platform ads reports run --account ${ACCOUNT} --type CAMPAIGN_PERFORMANCE --columns day_of,${COLUMNS} ${RANGE} --out january.csv`,
        `platform ads reports run --account ${ACCOUNT} --type CAMPAIGN_PERFORMANCE --last 4w --unit summary --sort -ad_spend --limit 20 --out top.csv`,
        `platform ads reports run --account ${ACCOUNT} --type AD_PERFORMANCE --columns ad_group_id,ad_group_name,clicks,ad_spend --unit summary --last 30d --filter campaign_id=CAMPAIGN -o csv > summary.csv`,
      ],
      load: () => import('./run.js'),
    }),
    command({
      name: 'create',
      summary: 'Create a report job and print its id',
      description: `Creates a report job and prints its id; follow it with \`ads reports get\` and \`ads reports download --wait\`.\n\n${DATES}`,
      options: createOptions,
      examples: [
        `platform ads reports create --account ${ACCOUNT} --type CAMPAIGN_PERFORMANCE --columns ${COLUMNS} --unit weekly --last 4w`,
        `id=$(platform ads reports create --account ${ACCOUNT} --type AD_PERFORMANCE --columns ad_group_id,clicks --unit summary ${RANGE}) && platform ads reports download "$id" --account ${ACCOUNT} --wait --out summary.csv`,
      ],
      load: () => import('./create.js'),
    }),
    command({
      name: 'get',
      summary: "Show a report job's type, unit, range and status, and its file once COMPLETED",
      args: [reportId],
      options: getOptions,
      examples: [`platform ads reports get report_0123456789abcdef01234567 --account ${ACCOUNT}`, `platform ads reports get ID --account ${ACCOUNT} --json`],
      load: () => import('./get.js'),
    }),
    command({
      name: 'download',
      summary: "Download a COMPLETED report's CSV (--wait: wait for it first)",
      args: [reportId],
      options: downloadOptions,
      examples: [
        `platform ads reports download ID --account ${ACCOUNT}`,
        `platform ads reports download ID --account ${ACCOUNT} --out report.csv`,
        `platform ads reports download ID --account ${ACCOUNT} --wait --out - | head`,
      ],
      load: () => import('./download.js'),
    }),
    command({
      name: 'sync',
      summary: 'Get report rows at once (daily, hourly or summary; not every type)',
      description:
        'Returns the rows at once, typed by the schema the API returns: numbers are numbers in JSON and right-aligned in tables. ' +
        "--unit summary sums each entity's daily counts and money here (ratios cannot be summed: use run). " +
        `The range it covers goes to stderr (on a terminal, above the table).\n\n${DATES}`,
      options: syncOptions,
      examples: [
        `platform ads reports sync --account ${ACCOUNT} --type CAMPAIGN_PERFORMANCE --last 1w --unit summary --sort -ad_spend --limit 5`,
        `platform ads reports sync --account ${ACCOUNT} --type CAMPAIGN_PERFORMANCE --columns ${COLUMNS} ${RANGE}`,
        `platform ads reports sync --account ${ACCOUNT} --type AD_PERFORMANCE --columns hour_of,ad_group_id,clicks --unit hourly --last 24h -o csv`,
      ],
      load: () => import('./sync.js'),
    }),
    command({
      name: 'types',
      summary: 'List report types, their default columns, columns and units (offline)',
      options: typesOptions,
      examples: ['platform ads reports types', 'platform ads reports types --type AD_PERFORMANCE', 'platform ads reports types --json'],
      load: () => import('./types.js'),
    }),
  ],
});
