// `platform rider ...`: its commands, flags, help and examples. Data only: command code
// loads when it runs. Each command's flags type is derived from its options here.
import { HISTORY_MAX_LIMIT, MAX_SEATS } from '../../schemas/rider-limits.js';
import { command, group, option, options, type FlagsOf } from '../spec.js';

const lang = option({ flags: '--lang <code>', description: 'language of product names, e.g. fr or en-US (default: from LC_ALL/LANG)' });
const from = option({ flags: '--from <lat,lng>', description: 'pickup location, e.g. 37.7749,-122.4194' });
const to = option({ flags: '--to <lat,lng>', description: 'destination, e.g. 37.7599,-122.4148' });
const seats = option({ flags: '--seats <n>', description: `seats for a shared ride, 1-${MAX_SEATS} (the API's default: ${MAX_SEATS})`, kind: 'int' });

const rideIdArg = { name: 'id', description: 'the request id (see `platform rider history`)', required: true, id: true } as const;

const SERVER_TOKEN_HELP =
  "With PLATFORM_SERVER_TOKEN set, this call uses that server token (Authorization: Token) instead of the\nprofile's token; the sandbox's demo server token is sandbox-demo-server-token.";

const riderProductsOptions = options(option({ flags: '--at <lat,lng>', description: 'the location, e.g. 37.7749,-122.4194', required: true }), lang);
export type RiderProductsFlags = FlagsOf<typeof riderProductsOptions>;

const riderEstimatePriceOptions = options(option({ ...from, required: true }), option({ ...to, required: true }), seats, lang);
export type RiderEstimatePriceFlags = FlagsOf<typeof riderEstimatePriceOptions>;

const riderEstimateTimeOptions = options(option({ ...from, required: true }), option({ flags: '--product <id>', description: 'only this product' }), lang);
export type RiderEstimateTimeFlags = FlagsOf<typeof riderEstimateTimeOptions>;

const riderMeOptions = options(option({ flags: '--apply-promo <code>', description: 'apply a promotion code first (PATCH /v1.2/me)' }));
export type RiderMeFlags = FlagsOf<typeof riderMeOptions>;

const riderRequestOptions = options(
  option({ flags: '--product <id|name>', description: 'product id or name at the pickup, e.g. Economy (see `rider products`)' }),
  from,
  to,
  seats,
  option({ flags: '-y, --yes', description: 'request without asking for confirmation' }),
  option({ flags: '--accept-surge', description: 'accept surge pricing without asking' }),
  option({ flags: '--wait', description: 'follow the ride until it ends, then print the receipt' }),
  option({ flags: '--expense-code <code>', description: 'alphanumeric expense code shown on the receipt' }),
  option({ flags: '--expense-memo <text>', description: 'expense memo shown on the receipt' }),
);
export type RiderRequestFlags = FlagsOf<typeof riderRequestOptions>;
const riderRequestGetOptions = options(option({ flags: '--wait', description: 'follow the ride until it ends, then print the receipt' }));
export type RiderRequestGetFlags = FlagsOf<typeof riderRequestGetOptions>;

const riderHistoryOptions = options(
  option({ flags: '-L, --limit <n>', description: `trips to show, 1-${HISTORY_MAX_LIMIT} (default 5)`, kind: 'int' }),
  option({ flags: '--offset <n>', description: 'skip this many trips', kind: 'int' }),
);
export type RiderHistoryFlags = FlagsOf<typeof riderHistoryOptions>;

export const riderSpec = group({
  name: 'rider',
  summary: 'Products, fare and time estimates, and ride requests (rider API v1.2)',
  description:
    'The rider API acts for a signed-in rider: sign in with `platform auth login --scopes "profile request"`.\n' +
    'Money is shown with its currency in tables and as the API sends it (floats) in JSON.',
  examples: [
    'platform rider products --at 37.7749,-122.4194',
    'platform rider request --product Economy --from 37.7749,-122.4194 --to 37.7599,-122.4148 --wait',
  ],
  subcommands: [
    command({
      name: 'products',
      summary: 'Products available at a location, in display order',
      description: SERVER_TOKEN_HELP,
      options: riderProductsOptions,
      examples: ['platform rider products --at 37.7749,-122.4194', 'platform rider products --at 48.8566,2.3522 --lang fr --json'],
      load: () => import('./products.js'),
    }),
    group({
      name: 'estimate',
      summary: 'Estimate prices or pickup times',
      examples: ['platform rider estimate price --from 37.7749,-122.4194 --to 37.7599,-122.4148', 'platform rider estimate time --from 37.7749,-122.4194'],
      subcommands: [
        command({
          name: 'price',
          summary: 'Price estimates of every product for a trip (surge included)',
          description: SERVER_TOKEN_HELP,
          options: riderEstimatePriceOptions,
          examples: [
            'platform rider estimate price --from 37.7749,-122.4194 --to 37.7599,-122.4148',
            'platform rider estimate price --from 40.7549,-73.9840 --to 40.6782,-73.9442 --seats 2 -o csv',
          ],
          load: () => import('./estimate/price.js'),
        }),
        command({
          name: 'time',
          summary: 'Pickup ETAs per product (products with no driver near are absent)',
          options: riderEstimateTimeOptions,
          examples: ['platform rider estimate time --from 37.7749,-122.4194', 'platform rider estimate time --from 48.8606,2.3376 --lang fr --json'],
          load: () => import('./estimate/time.js'),
        }),
      ],
    }),
    command({
      name: 'me',
      summary: "The signed-in rider's profile",
      options: riderMeOptions,
      examples: ['platform rider me', 'platform rider me --apply-promo FREERIDE --json'],
      load: () => import('./me.js'),
    }),
    command({
      name: 'request',
      summary: 'Request a ride (with fare and surge confirmation); or get, cancel, current',
      description:
        'Without a subcommand: estimates the ride, shows the fare and asks before requesting (--yes does not ask).\n' +
        'When surge pricing is in effect it shows the multiplier and asks again (--accept-surge accepts it).\n' +
        'An expired fare is estimated again once, and asked again. Without a terminal it never asks: it\n' +
        'fails (exit 1) unless --yes (and, under surge, --accept-surge) are given.\n' +
        '--wait follows the ride until it ends and prints the receipt (exit 1 when it ends without a trip).',
      options: riderRequestOptions,
      examples: [
        'platform rider request --product Economy --from 37.7749,-122.4194 --to 37.7599,-122.4148',
        'platform rider request --product Economy --from 37.7842,-122.4016 --to 37.7599,-122.4148 --yes --accept-surge --wait',
        'platform rider request get 5f2a...',
        'platform rider request cancel 5f2a...',
        'platform rider request current --json',
      ],
      load: () => import('./request/create.js'),
      subcommands: [
        command({
          name: 'get',
          summary: 'Show one ride request; --wait follows it to the end and prints the receipt',
          args: [rideIdArg],
          options: riderRequestGetOptions,
          examples: ['platform rider request get 5f2a...', 'platform rider request get 5f2a... --wait', 'platform rider request get 5f2a... --json'],
          load: () => import('./request/get.js'),
        }),
        command({
          name: 'cancel',
          summary: 'Cancel a ride request as the rider',
          args: [rideIdArg],
          examples: ['platform rider request cancel 5f2a...', 'platform rider request cancel "$(platform rider request current --json | jq -r .request_id)"'],
          load: () => import('./request/cancel.js'),
        }),
        command({
          name: 'current',
          summary: 'Show the ride the rider is on now',
          examples: ['platform rider request current', 'platform rider request current --json'],
          load: () => import('./request/current.js'),
        }),
      ],
    }),
    command({
      name: 'history',
      summary: "The rider's trips, newest first",
      options: riderHistoryOptions,
      examples: ['platform rider history', 'platform rider history --limit 50 --offset 50 -o csv'],
      load: () => import('./history.js'),
    }),
  ],
});
