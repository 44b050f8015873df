// Every command, its flags, help and examples. Command code loads only when it runs.
import { OUTPUT_FORMATS } from '../context.js';
import { MAX_BATCH_ITEMS, MAX_PAGE_LIMIT } from '../schemas/limits.js';
import type { ArgSpec, CommandSpec, OptionSpec } from './spec.js';
import { columnsHelp } from '../bulk/csv-columns.js';
import { BACKOFF_BASE_SECONDS } from '../webhooks/delivery.js';
import { deliveryTree, riderTree } from './rider-tree.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';

const account: OptionSpec = { flags: '--account <id>', description: 'ad account id (see `platform ads accounts list`)', required: true };
const campaign: OptionSpec = { flags: '--campaign <id>', description: 'campaign id', required: true };
const campaignOptional: OptionSpec = { flags: '--campaign <id>', description: 'campaign id (required unless each CSV row has campaign_id)' };
const adGroup: OptionSpec = { flags: '--ad-group <id>', description: 'ad group id', required: true };

const paging: OptionSpec[] = [
  { flags: '--all', description: `fetch every page (pages of ${MAX_PAGE_LIMIT}, streamed)` },
  { flags: '-L, --limit <n>', description: 'stop after n items', kind: 'int' },
  { flags: '--page-token <token>', description: 'start at this page (the token a previous page printed on stderr)' },
  { flags: '--page-limit <n>', description: `items per request, 1-${MAX_PAGE_LIMIT} (default: the API's page size)`, kind: 'int' },
];

const fromJson: OptionSpec = { flags: '--from-json <file>', description: 'read API body items from a JSON array or NDJSON file (- for stdin) instead of flags', file: true };

/** Bulk input and processing (create/patch of campaigns and ad groups). */
const bulk: OptionSpec[] = [
  { flags: '--from-csv <file>', description: 'read rows from a CSV file (- for stdin); see "CSV columns" below', file: true },
  fromJson,
  { flags: '--dry-run', description: 'validate, look up the current values and print what would change; send no write' },
  { flags: '--skip-invalid', description: 'send the valid rows even when some are invalid (they are reported as invalid)' },
  { flags: '--batch-size <n>', description: `rows per request (max ${MAX_BATCH_ITEMS}, enforced by the API)`, kind: 'int', default: 500 },
  { flags: '--concurrency <n>', description: 'requests in flight at once (max 16)', kind: 'int', default: 4 },
  { flags: '--resume <results>', description: 'skip the rows that succeeded in an earlier run (its NDJSON, JSON or CSV results)', file: true },
];

const BULK_HELP =
  'Rows come from flags (one item), --from-csv or --from-json. Every row is validated before anything ' +
  'is sent: with any invalid row nothing is sent (exit 2) unless --skip-invalid. Results: one per row, in ' +
  'input order (line, id, result ok|failed|invalid|skipped, error_code, error_message); exit 0 when all ' +
  'succeeded, 1 when any failed. Ctrl-C stops sending, lets requests in flight finish, reports the rest ' +
  'as skipped and exits 130; --resume RESULTS then sends only what is left.';

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

const webhookBody: ArgSpec = { name: 'file', description: 'the raw request body (- or nothing: stdin)' };

/** Sending deliveries (`webhooks replay`, `webhooks trigger`): spec 6.3.3 retries. */
const deliveryOptions: OptionSpec[] = [
  { flags: '--to <url>', description: 'the receiver URL to POST to', required: true },
  { flags: '--environment <env>', description: 'X-Environment header', choices: ['sandbox', 'production'], default: 'sandbox' },
  { flags: '--backoff-base <seconds>', description: 'back-off multiplier: attempts at 0, base, 2 base, 4 base, ... (spec: 30)', kind: 'number', default: BACKOFF_BASE_SECONDS },
  { flags: '--attempts <n>', description: 'attempts per event, at most 7 (spec 6.3.3)', kind: 'int', default: 7 },
  { flags: '--timeout <seconds>', description: 'how long to wait for each answer before counting it as unreachable', kind: 'number', default: 10 },
];


export const commandTree: CommandSpec[] = [
  {
    name: 'sandbox',
    summary: 'Run the local emulator of the whole API',
    examples: ['platform sandbox serve', 'platform sandbox serve --port 0 --state sandbox.json'],
    subcommands: [
      {
        name: 'serve',
        summary: 'Start the sandbox server on loopback (Ctrl-C stops it)',
        description:
          'Start a stateful emulator of the whole API on loopback: the ads API, OAuth (client\n' +
          'credentials, the browser consent page, refresh), the rider API with simulated trips,\n' +
          'delivery quotes and signed webhook deliveries, seeded with deterministic demo data.\n' +
          'It prints its base URL and demo credentials; the built-in "local" profile points at its\n' +
          'default address, so other commands work against it at once.',
        options: [
          { flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' },
          { flags: '--port <port>', description: 'port to listen on (0 picks a free one)', kind: 'int', default: 4010 },
          { flags: '--seed <n>', description: 'seed of the demo data', kind: 'int', default: 1 },
          { flags: '--campaigns <n>', description: 'seed exactly n campaigns in the first account (benchmarks)', kind: 'int' },
          { flags: '--state <file>', description: 'keep data in this file across restarts', file: true },
          { flags: '--fail-rate <p>', description: 'answer this share of API calls with a 500 or a dropped connection', kind: 'number', default: 0 },
          { flags: '--throttle-rate <p>', description: 'answer this share of API calls with 429 and Retry-After', kind: 'number', default: 0 },
          { flags: '--item-fail-rate <p>', description: 'fail this share of batch items with a transient error (not applied)', kind: 'number', default: 0 },
          { flags: '--rate-limit <n>', description: 'allow n requests per second per token, then 429', kind: 'int' },
          { flags: '--latency <ms>', description: 'delay every answer', kind: 'int', default: 0 },
          { flags: '--time-scale <n>', description: 'run simulated rider trips n times faster than the wall clock', kind: 'number', default: 1 },
          { flags: '--webhook-url <url>', description: 'deliver ride events (spec 6) here, signed with the client secret, unless the application has its own URL' },
          { flags: '--webhook-chaos <rates>', description: 'deliver a share of events twice and out of order: a rate 0-1, or duplicates=RATE,reorder=RATE' },
        ],
        examples: [
          'platform sandbox serve',
          'platform sandbox serve --port 0 --state sandbox.json',
          'platform sandbox serve --fail-rate 0.05 --throttle-rate 0.05',
          'platform sandbox serve --time-scale 60 --webhook-url http://127.0.0.1:4011/',
          'platform sandbox serve --webhook-url http://127.0.0.1:4011/ --webhook-chaos duplicates=0.3,reorder=0.3',
        ],
        load: () => import('./sandbox/serve.js'),
      },
    ],
  },
  {
    name: 'auth',
    summary: 'Sign in, inspect and remove credentials',
    examples: ['platform auth login --client-credentials --profile local', 'platform auth status'],
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
          'while it works.\n\n' +
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
    examples: ['platform ads accounts list', `platform ads campaigns list --account ${ACCOUNT}`],
    subcommands: [
      {
        name: 'accounts',
        summary: 'Ad accounts',
        examples: ['platform ads accounts list', 'platform ads accounts list -o csv'],
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
        examples: [`platform ads stores list --account ${ACCOUNT}`, `platform ads stores list --account ${ACCOUNT} --all -o csv > stores.csv`],
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
        examples: [`platform ads campaigns list --account ${ACCOUNT}`, `platform ads campaigns patch --account ${ACCOUNT} --campaign-id ID --status paused`],
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
            description: `Create campaigns.\n\n${BULK_HELP}`,
            details: columnsHelp('campaigns'),
            options: [account, ...campaignFields, ...bulk],
            examples: [
              `platform ads campaigns create --account ${ACCOUNT} --name "Spring promo" --budget 50 --currency USD --budget-unit daily`,
              `platform ads campaigns create --account ${ACCOUNT} --from-json campaigns.json`,
            ],
            load: () => import('./ads/campaigns/create.js'),
          },
          {
            name: 'patch',
            summary: 'Change campaigns: name, status, budget',
            description: `Change campaigns: only the fields given change.\n\n${BULK_HELP}`,
            details: columnsHelp('campaigns'),
            options: [account, { flags: '--campaign-id <id>', description: 'campaign to change' }, ...campaignFields.map(noDefault), ...bulk],
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
        examples: [`platform ads ad-groups list --account ${ACCOUNT} --campaign CAMPAIGN`, `platform ads ad-groups patch --account ${ACCOUNT} --campaign CAMPAIGN --ad-group-id ID --status paused`],
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
            description: `Create ad groups in a campaign.\n\n${BULK_HELP}`,
            details: columnsHelp('ad_groups'),
            options: [account, campaignOptional, { flags: '--ad-product <product>', description: 'ad product', choices: ['listing', 'search'], default: 'listing' }, ...adGroupFields, ...bulk],
            examples: [
              `platform ads ad-groups create --account ${ACCOUNT} --campaign CAMPAIGN --name "Lunch" --store-ids STORE --bid 0.50 --currency USD --keywords pizza,pasta --match-type exact --daypart mon-fri=11:00-14:00`,
              `platform ads ad-groups create --account ${ACCOUNT} --campaign CAMPAIGN --from-json ad-groups.json`,
            ],
            load: () => import('./ads/ad-groups/create.js'),
          },
          {
            name: 'patch',
            summary: 'Change ad groups: name, status, budget, bidding, targeting, schedule',
            description: `Change ad groups: only the fields given change.\n\n${BULK_HELP}`,
            details: columnsHelp('ad_groups'),
            options: [account, campaignOptional, { flags: '--ad-group-id <id>', description: 'ad group to change' }, ...adGroupFields.map(noDefault), ...bulk],
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
        examples: [`platform ads ads list --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP`, `platform ads ads create --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP --name "Downtown store"`],
        subcommands: [
          {
            name: 'list',
            summary: 'List the ads of an ad group',
            options: [account, campaign, adGroup, ...paging, { flags: '--id <list>', description: 'only these ad ids (comma-separated)', kind: 'list' }],
            examples: [
              `platform ads ads list --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP`,
              `platform ads ads list --account ${ACCOUNT} --campaign CAMPAIGN --ad-group AD_GROUP --all -o ndjson`,
            ],
            load: () => import('./ads/ads/list.js'),
          },
          {
            name: 'create',
            summary: 'Create ads in an ad group',
            options: [account, campaign, adGroup, { flags: '--name <name>', description: 'ad name' }, ...bulk.filter((o) => o.flags !== '--from-csv <file>')],
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
  riderTree,
  deliveryTree,
  {
    name: 'webhooks',
    summary: 'Verify, receive, replay and trigger webhook deliveries',
    description:
      'Deliveries are POSTs with X-Platform-Signature: the hexadecimal HMAC-SHA256 of the raw request body, ' +
      'keyed by the application\'s client secret, and X-Environment (spec 6.3). The secret comes from ' +
      'PLATFORM_WEBHOOK_SECRET, else the client secret of the profile (PLATFORM_CLIENT_SECRET over the stored ' +
      'one), else a hidden prompt; it is never a command-line argument and never printed.',
    examples: [
      'platform webhooks verify body.json --headers headers.txt',
      'platform webhooks listen --port 4011 --save deliveries.ndjson',
      'platform webhooks replay --to http://127.0.0.1:3000/hooks deliveries.ndjson',
    ],
    subcommands: [
      {
        name: 'verify',
        summary: 'Check a signature against a body; exit 0 valid, 1 invalid (saying why), 2 unusable input',
        description:
          'Compares, in constant time, the signature (--signature, or X-Platform-Signature found in a raw header ' +
          'block with --headers) with the HMAC-SHA256 of the exact bytes of FILE (or stdin): no trimming, no JSON ' +
          'round trip. When they differ it tries the usual mistakes and names the one that matches: a trailing ' +
          'newline added or removed, a byte-order mark, the JSON re-serialized (pretty-printed, keys reordered), ' +
          'backslash escapes removed by a JSON parser (spec 6.3.4), or the other secret (PLATFORM_WEBHOOK_SECRET vs ' +
          'the profile\'s client secret). Uppercase hex or whitespace around the value still verify, with a note; ' +
          '--strict treats them as the mismatch they are for a receiver comparing strings. -o json prints the ' +
          'computation (body size, computed and given signature, secret source by name, diagnosis).',
        args: [webhookBody],
        options: [
          { flags: '--signature <hex>', description: 'the X-Platform-Signature value (64 hex digits)' },
          { flags: '--headers <file>', description: 'a raw HTTP header block (from a proxy, curl -v or a log) holding X-Platform-Signature and X-Environment', file: true },
          { flags: '--strict', description: 'compare the value exactly as the platform sends it: 64 lowercase hex digits, nothing around them' },
        ],
        examples: [
          'platform webhooks verify body.json --signature "$X_PLATFORM_SIGNATURE"',
          'platform webhooks verify body.json --headers headers.txt -o json',
          'platform webhooks verify - --signature "$(platform webhooks sign body.json)" < body.json && echo valid',
        ],
        load: () => import('./webhooks/verify.js'),
      },
      {
        name: 'listen',
        summary: 'Receive deliveries on 127.0.0.1: verify, de-duplicate, print, forward and save them',
        description:
          'Listens on 127.0.0.1 only. Each delivery is verified over its raw body and answered 200 with an empty ' +
          'body; one line per event goes to stdout (valid|invalid, event_type, resource_id, status, event_id; NDJSON ' +
          'with -o json). The delivery rules of spec 6.3.1 apply: a repeat of (event_type, resource id, status) is a ' +
          'duplicate and ignored; an older status than one already seen is flagged out of order and the latest is ' +
          'kept. Verified, non-duplicate deliveries are forwarded byte for byte with their headers to --forward-to; ' +
          '--save appends every delivery (headers and base64 body) to an NDJSON file that `webhooks replay` reads. ' +
          'Bodies over --max-body get 413 and go nowhere. Ctrl-C stops it and prints the latest status per resource.',
        options: [
          { flags: '--port <n>', description: 'port on 127.0.0.1 (0 picks a free one)', kind: 'int', default: 4011 },
          { flags: '--forward-to <url>', description: 'forward verified deliveries to this URL (e.g. your app)' },
          { flags: '--save <file>', description: 'append each delivery to this NDJSON capture file', file: true },
          { flags: '--events <types>', description: 'only these event types (comma-separated): requests.status_changed, requests.receipt_ready, all_trips.status_changed', kind: 'list' },
          { flags: '--max-body <bytes>', description: 'largest body accepted; larger ones get 413', kind: 'int', default: 1024 * 1024 },
        ],
        examples: [
          'platform webhooks listen --port 4011 --forward-to http://127.0.0.1:3000/webhooks',
          'platform webhooks listen --save deliveries.ndjson --events requests.status_changed -o json',
          'platform sandbox serve --webhook-url http://127.0.0.1:4011/ & platform webhooks listen --profile local',
        ],
        load: () => import('./webhooks/listen.js'),
      },
      {
        name: 'replay',
        summary: 'Resend captured deliveries or event JSON, re-signed, in order, with retries',
        description:
          'Reads a capture file of `webhooks listen --save` (NDJSON) or hand-written events (one JSON object, an ' +
          'array, or NDJSON) from FILE or stdin and POSTs each body, re-signed with the secret, with X-Environment, ' +
          'in order. An unreachable URL, a timeout or a 5xx answer is retried with the back-off of spec 6.3.3: ' +
          'up to 7 attempts, at 0, 30, 60, 120, 240, 480 and 960 s (--backoff-base scales it: 0.01 waits 10 ms, ' +
          '10 ms, 20 ms, ...). A 2xx is accepted; a 4xx is final. Prints each attempt; exit 1 if any event was never accepted.',
        args: [{ name: 'file', description: 'capture file or event JSON (- or nothing: stdin)' }],
        options: deliveryOptions,
        examples: [
          'platform webhooks replay --to http://127.0.0.1:3000/webhooks deliveries.ndjson',
          'platform webhooks replay --to http://127.0.0.1:3000/webhooks --backoff-base 1 event.json',
          'grep receipt_ready deliveries.ndjson | platform webhooks replay --to http://127.0.0.1:3000/webhooks -',
        ],
        load: () => import('./webhooks/replay.js'),
      },
      {
        name: 'trigger',
        summary: 'Send one signed test event of a type, with a fresh event_id and event_time',
        description:
          'Builds a valid payload of spec 6.1 (event_id, event_time, event_type, meta {user_id, resource_id, ' +
          'resource_type, status}, resource_href) and sends it signed, retried like `webhooks replay`. The status ' +
          'defaults to accepted, or ready for requests.receipt_ready.',
        args: [{ name: 'event-type', description: 'requests.status_changed, requests.receipt_ready or all_trips.status_changed', required: true, choices: ['requests.status_changed', 'requests.receipt_ready', 'all_trips.status_changed'] }],
        options: [
          ...deliveryOptions,
          { flags: '--resource-id <id>', description: 'meta.resource_id: the ride request id (default: a new UUID)' },
          { flags: '--status <status>', description: 'meta.status, e.g. accepted, in_progress, completed (default: accepted; ready for receipts)' },
          { flags: '--user-id <id>', description: 'meta.user_id (default: a new UUID)' },
        ],
        examples: [
          'platform webhooks trigger requests.status_changed --to http://127.0.0.1:4011/ --status in_progress',
          'platform webhooks trigger requests.receipt_ready --to http://127.0.0.1:3000/webhooks --resource-id 8f1c2a',
        ],
        load: () => import('./webhooks/trigger.js'),
      },
      {
        name: 'sign',
        summary: 'Print the signature of a body: hex HMAC-SHA256 keyed by the webhook secret',
        args: [webhookBody],
        examples: ['PLATFORM_WEBHOOK_SECRET=s3cret platform webhooks sign body.json', 'printf \'{"event_id":"1"}\' | platform webhooks sign -'],
        load: () => import('./webhooks/sign.js'),
      },
    ],
  },
  {
    name: 'api',
    summary: 'Make an authenticated request to any API path and print the response',
    description:
      'Calls METHOD PATH with the profile\'s token (fetched, retried and refreshed as for any command) ' +
      'and prints the response body: pretty JSON on a terminal, the raw body otherwise. METHOD is GET, ' +
      'or POST when -f/-F/--input give a body (GET with --paginate). Fields are query parameters for GET ' +
      'and a JSON body otherwise (with --input, query parameters). A non-2xx answer prints its body, ' +
      'exits 1 and says why on stderr.',
    args: [
      { name: 'method-or-path', description: 'METHOD (GET, POST, PATCH, PUT, DELETE) followed by PATH, or just PATH', required: true },
      { name: 'path', description: 'PATH when METHOD comes first, e.g. /v1/ads/ad-accounts' },
    ],
    options: [
      { flags: '-f, --raw-field <key=value>', description: 'add a string field (repeatable; key[]=v appends to an array, a[b]=v nests)', kind: 'repeat' },
      { flags: '-F, --field <key=value>', description: 'add a typed field: numbers, true, false, null, or @file / @- for a file\'s contents (repeatable)', kind: 'repeat' },
      { flags: '--input <file>', description: 'send this file (- for stdin) as the request body', file: true },
      { flags: '-H, --header <name:value>', description: 'add a request header (repeatable)', kind: 'repeat' },
      { flags: '--paginate', description: 'follow next_page_token and print every item as one JSON array (or NDJSON with -o ndjson)' },
      { flags: '-i, --include', description: 'print the status line and response headers before the body (of the first page with --paginate)' },
    ],
    examples: [
      'platform api /v1/ads/ad-accounts',
      `platform api /v1/ads/${ACCOUNT}/campaigns --paginate -o ndjson`,
      `platform api GET /v1/ads/${ACCOUNT}/campaigns -F page_limit=5 -i`,
      `platform api PATCH /v1/ads/${ACCOUNT}/campaigns --input changes.json`,
    ],
    load: () => import('./api/api.js'),
  },
  {
    name: 'completion',
    summary: 'Print a shell completion script: bash, zsh or fish',
    description: 'Prints a completion script for the shell on stdout. See the README, "Shell completion", to install it.',
    args: [{ name: 'shell', description: 'bash, zsh or fish', required: true, choices: ['bash', 'zsh', 'fish'] }],
    examples: ['source <(platform completion bash)', 'platform completion zsh > "${fpath[1]}/_platform"', 'platform completion fish > ~/.config/fish/completions/platform.fish'],
    load: () => import('./completion.js'),
  },
  {
    name: '__complete',
    summary: 'Values for the shell completion scripts',
    hidden: true,
    args: [{ name: 'kind', description: 'what to list', required: true, choices: ['profiles'] }],
    examples: ['platform __complete profiles', 'platform __complete profiles --profile local'],
    load: () => import('./complete.js'),
  },
];

/** Patch flags leave unset fields unchanged, so they carry no defaults. */
function noDefault(option: OptionSpec): OptionSpec {
  return { ...option, default: undefined };
}

