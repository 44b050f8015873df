// Every command, its flags, help and examples. Command code loads only when it runs.
import { OUTPUT_FORMATS } from '../context.js';
import { MAX_BATCH_ITEMS, MAX_PAGE_LIMIT } from '../schemas/limits.js';
import type { CommandSpec, OptionSpec } from './spec.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';

const account: OptionSpec = { flags: '--account <id>', description: 'ad account id (see `platform ads accounts list`)', required: true };
const campaign: OptionSpec = { flags: '--campaign <id>', description: 'campaign id', required: true };
const adGroup: OptionSpec = { flags: '--ad-group <id>', description: 'ad group id', required: true };

const paging: OptionSpec[] = [
  { flags: '--all', description: `fetch every page (pages of ${MAX_PAGE_LIMIT}, streamed)` },
  { flags: '-L, --limit <n>', description: 'stop after n items', kind: 'int' },
  { flags: '--page-token <token>', description: 'start at this page (the token a previous page printed on stderr)' },
  { flags: '--page-limit <n>', description: `items per request, 1-${MAX_PAGE_LIMIT} (default: the API's page size)`, kind: 'int' },
];

const fromJson: OptionSpec = { flags: '--from-json <file>', description: 'read API body items from a JSON array or NDJSON file (- for stdin) instead of flags', file: true };

const budget: OptionSpec[] = [
  { flags: '--budget <amount>', description: 'budget as a decimal, e.g. 12.34 (converted exactly to amount_e5 = amount x 10^5; the spec leaves the scale open, the field name states it)' },
  { flags: '--budget-e5 <amount_e5>', description: 'budget as the raw amount_e5 integer, e.g. 1234000' },
  { flags: '--currency <code>', description: 'ISO 4217 currency of --budget/--bid, e.g. USD' },
  { flags: '--budget-unit <unit>', description: 'budget period', choices: ['daily', 'weekly', 'fixed'], default: 'daily' },
];

const campaignFields: OptionSpec[] = [
  { flags: '--name <name>', description: 'campaign name' },
  { flags: '--status <status>', description: 'configured status', choices: ['active', 'paused'] },
  ...budget,
];

const adGroupFields: OptionSpec[] = [
  { flags: '--name <name>', description: 'ad group name' },
  { flags: '--status <status>', description: 'configured status', choices: ['active', 'paused'] },
  ...budget,
  { flags: '--bid <amount>', description: 'manual bid as a decimal in --currency (sets manual bidding)' },
  { flags: '--auto-bid', description: 'automatic bidding' },
  { flags: '--start <time>', description: 'schedule start, ISO 8601 (create default: now)' },
  { flags: '--end <time>', description: 'schedule end, ISO 8601 (default: none)' },
  { flags: '--keywords <list>', description: 'keyword targeting, comma-separated', kind: 'list' },
  { flags: '--match-type <type>', description: 'keyword match type', choices: ['exact', 'broad'] },
  { flags: '--platform-one', description: 'target Platform One members' },
  { flags: '--target-operator <op>', description: 'how targeting criteria combine', choices: ['AND', 'OR'] },
  { flags: '--negate-targeting', description: 'target everyone except the criteria' },
  { flags: '--store-ids <list>', description: 'stores the ad group promotes, comma-separated', kind: 'list' },
  { flags: '--daypart <days=HH:MM-HH:MM>', description: 'dayparting, repeatable: days are mon..sun, ranges (mon-fri) or lists (sat,sun); 24:00 ends the day', kind: 'repeat' },
];

const batchSize: OptionSpec = { flags: '--batch-size <n>', description: `items per request (max ${MAX_BATCH_ITEMS})`, kind: 'int', default: 500, hidden: true };

export const commandTree: CommandSpec[] = [
  {
    name: 'sandbox',
    summary: 'Run the local emulator of the whole API',
    subcommands: [
      {
        name: 'serve',
        summary: 'Start the sandbox server on loopback (Ctrl-C stops it)',
        description:
          'Start a stateful emulator of the ads API and its token endpoint on loopback, seeded with\n' +
          'deterministic demo data. It prints its base URL and demo credentials; the built-in\n' +
          '"local" profile points at its default address, so other commands work against it at once.',
        options: [
          { flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' },
          { flags: '--port <port>', description: 'port to listen on (0 picks a free one)', kind: 'int', default: 4010 },
          { flags: '--seed <n>', description: 'seed of the demo data', kind: 'int', default: 1 },
          { flags: '--campaigns <n>', description: 'seed exactly n campaigns in the first account (benchmarks)', kind: 'int' },
          { flags: '--state <file>', description: 'keep data in this file across restarts', file: true },
          { flags: '--fail-rate <p>', description: 'answer this share of API calls with a 500 or a dropped connection', kind: 'number', default: 0 },
          { flags: '--throttle-rate <p>', description: 'answer this share of API calls with 429 and Retry-After', kind: 'number', default: 0 },
          { flags: '--rate-limit <n>', description: 'allow n requests per second per token, then 429', kind: 'int' },
          { flags: '--latency <ms>', description: 'delay every answer', kind: 'int', default: 0 },
        ],
        examples: ['platform sandbox serve', 'platform sandbox serve --port 0 --state sandbox.json', 'platform sandbox serve --fail-rate 0.05 --throttle-rate 0.05'],
        load: () => import('./sandbox/serve.js'),
      },
    ],
  },
  {
    name: 'auth',
    summary: 'Sign in, inspect and remove credentials',
    subcommands: [
      {
        name: 'login',
        summary: 'Sign in with the browser, or store client credentials for a profile',
        description:
          'Without flags: sign in as a user in the browser (authorization code with PKCE). A listener on\n' +
          '127.0.0.1 receives the redirect; the URL is printed first, then opened ($PLATFORM_BROWSER,\n' +
          '$BROWSER, else the system browser). With --no-browser, or when no browser can be opened (an\n' +
          'SSH session, no display), open the URL anywhere and paste the address it redirects to.\n' +
          'Tokens are kept in the profile and renewed with the refresh token; you are not asked again\n' +
          'while it works.\n' +
          'With --client-credentials: store the client id (and secret) in the profile and fetch a token\n' +
          'with the client-credentials grant. The secret comes from PLATFORM_CLIENT_SECRET or a hidden\n' +
          'prompt, never from a command-line argument.',
        options: [
          { flags: '--client-credentials', description: 'use the client-credentials grant (no browser, no user)' },
          { flags: '--client-id <id>', description: 'OAuth client id (env: PLATFORM_CLIENT_ID)' },
          { flags: '--scopes <list>', description: 'scopes to request, comma- or space-separated (browser default: profile, request and the ads scopes; client credentials: all the client may have)', kind: 'list' },
          { flags: '--base-url <url>', description: 'API base URL of the profile (default for new profiles: the local sandbox)' },
          { flags: '--callback-port <n>', description: 'port of the 127.0.0.1 listener (default: any free port; fix it to forward with ssh -L)', kind: 'int' },
          { flags: '--no-browser', description: 'do not open a browser: print the URL and read the redirected address from stdin' },
          { flags: '--timeout <duration>', description: 'how long to wait for the browser sign-in, e.g. 90s, 5m', default: '5m' },
          { flags: '--login-hint <user>', description: 'which user to sign in as (the sandbox: demo, no-payment, unverified, or an email)' },
          { flags: '--consent', description: 'show the consent page even if these scopes were allowed before (prompt=consent)' },
        ],
        examples: [
          'platform auth login',
          'platform auth login --profile prod --client-id abc --base-url https://api.example.com --scopes profile,request',
          'platform auth login --no-browser --callback-port 8765    # on a server; ssh -L 8765:127.0.0.1:8765 from your machine',
          'platform auth login --client-credentials --profile local',
          'PLATFORM_CLIENT_SECRET=... platform auth login --client-credentials --profile prod --client-id abc --base-url https://api.example.com',
          'platform auth login --client-credentials --scopes ads.campaigns.read',
        ],
        load: () => import('./auth/login.js'),
      },
      {
        name: 'status',
        summary: 'Show every profile: grant, scopes, expiry (never the token)',
        examples: ['platform auth status', 'platform auth status --json'],
        load: () => import('./auth/status.js'),
      },
      {
        name: 'token',
        summary: 'Print the access token of the profile, for scripts',
        examples: ['platform auth token', 'curl -H "Authorization: Bearer $(platform auth token)" http://127.0.0.1:4010/v1/ads/ad-accounts'],
        load: () => import('./auth/token.js'),
      },
      {
        name: 'logout',
        summary: "Remove the profile's stored tokens and secret",
        examples: ['platform auth logout', 'platform auth logout --profile prod'],
        load: () => import('./auth/logout.js'),
      },
    ],
  },
  {
    name: 'ads',
    summary: 'Ad accounts, stores, campaigns, ad groups and ads',
    subcommands: [
      {
        name: 'accounts',
        summary: 'Ad accounts',
        subcommands: [
          {
            name: 'list',
            summary: 'List the active ad accounts you can use',
            examples: ['platform ads accounts list', 'platform ads accounts list -o csv'],
            load: () => import('./ads/accounts/list.js'),
          },
        ],
      },
      {
        name: 'stores',
        summary: 'Stores of an ad account',
        subcommands: [
          {
            name: 'list',
            summary: 'List the stores of an ad account',
            options: [account, ...paging],
            examples: [`platform ads stores list --account ${ACCOUNT}`, `platform ads stores list --account ${ACCOUNT} --all -o csv > stores.csv`],
            load: () => import('./ads/stores/list.js'),
          },
        ],
      },
      {
        name: 'campaigns',
        summary: 'Campaigns of an ad account',
        subcommands: [
          {
            name: 'list',
            summary: 'List campaigns (first page; --all for every page)',
            options: [account, ...paging, { flags: '--id <list>', description: 'only these campaign ids (comma-separated)', kind: 'list' }],
            examples: [
              `platform ads campaigns list --account ${ACCOUNT}`,
              `platform ads campaigns list --account ${ACCOUNT} --all -o csv > campaigns.csv`,
              `platform ads campaigns list --account ${ACCOUNT} --id ID1,ID2 --json`,
            ],
            load: () => import('./ads/campaigns/list.js'),
          },
          {
            name: 'create',
            summary: 'Create campaigns from flags or --from-json',
            options: [account, ...campaignFields, fromJson, batchSize],
            examples: [
              `platform ads campaigns create --account ${ACCOUNT} --name "Spring promo" --budget 50 --currency USD --budget-unit daily`,
              `platform ads campaigns create --account ${ACCOUNT} --from-json campaigns.json`,
            ],
            load: () => import('./ads/campaigns/create.js'),
          },
          {
            name: 'patch',
            summary: 'Change campaigns: name, status, budget',
            options: [account, { flags: '--campaign-id <id>', description: 'campaign to change' }, ...campaignFields.map(noDefault), fromJson, batchSize],
            examples: [
              `platform ads campaigns patch --account ${ACCOUNT} --campaign-id ID --status paused`,
              `platform ads campaigns patch --account ${ACCOUNT} --campaign-id ID --budget 75.50 --currency USD`,
              `platform ads campaigns patch --account ${ACCOUNT} --from-json changes.ndjson`,
            ],
            load: () => import('./ads/campaigns/patch.js'),
          },
        ],
      },
      {
        name: 'ad-groups',
        summary: 'Ad groups of a campaign',
        subcommands: [
          {
            name: 'list',
            summary: 'List the ad groups of a campaign',
            options: [account, campaign, ...paging, { flags: '--id <list>', description: 'only these ad group ids (comma-separated)', kind: 'list' }],
            examples: [`platform ads ad-groups list --account ${ACCOUNT} --campaign CAMPAIGN`, `platform ads ad-groups list --account ${ACCOUNT} --campaign CAMPAIGN --all --json`],
            load: () => import('./ads/ad-groups/list.js'),
          },
          {
            name: 'create',
            summary: 'Create ad groups from flags or --from-json',
            options: [account, campaign, { flags: '--ad-product <product>', description: 'ad product', choices: ['listing', 'search'], default: 'listing' }, ...adGroupFields, fromJson, batchSize],
            examples: [
              `platform ads ad-groups create --account ${ACCOUNT} --campaign CAMPAIGN --name "Lunch" --store-ids STORE --bid 0.50 --currency USD --keywords pizza,pasta --match-type exact --daypart mon-fri=11:00-14:00`,
              `platform ads ad-groups create --account ${ACCOUNT} --campaign CAMPAIGN --from-json ad-groups.json`,
            ],
            load: () => import('./ads/ad-groups/create.js'),
          },
          {
            name: 'patch',
            summary: 'Change ad groups: name, status, budget, bidding, targeting, schedule',
            options: [account, campaign, { flags: '--ad-group-id <id>', description: 'ad group to change' }, ...adGroupFields.map(noDefault), fromJson, batchSize],
            examples: [
              `platform ads ad-groups patch --account ${ACCOUNT} --campaign CAMPAIGN --ad-group-id ID --status paused`,
              `platform ads ad-groups patch --account ${ACCOUNT} --campaign CAMPAIGN --ad-group-id ID --bid 0.75 --currency USD`,
            ],
            load: () => import('./ads/ad-groups/patch.js'),
          },
        ],
      },
      {
        name: 'ads',
        summary: 'Ads of an ad group',
        subcommands: [
          {
            name: 'list',
            summary: 'List the ads of an ad group',
            options: [account, campaign, adGroup, ...paging, { flags: '--id <list>', description: 'only these ad ids (comma-separated)', kind: 'list' }],
            examples: [`platform ads ads list --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP`],
            load: () => import('./ads/ads/list.js'),
          },
          {
            name: 'create',
            summary: 'Create ads in an ad group',
            options: [account, campaign, adGroup, { flags: '--name <name>', description: 'ad name' }, fromJson, batchSize],
            examples: [
              `platform ads ads create --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP --name "Downtown store"`,
              `platform ads ads create --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP --from-json ads.json`,
            ],
            load: () => import('./ads/ads/create.js'),
          },
        ],
      },
    ],
  },
];

/** Patch flags leave unset fields unchanged, so they carry no defaults. */
function noDefault(option: OptionSpec): OptionSpec {
  return { ...option, default: undefined };
}

