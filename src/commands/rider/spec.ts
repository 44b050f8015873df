// `platform rider ...`: its commands, flags, help and examples. Data only: command code
// loads when it runs. Each command's flags type is derived from its options here.
import { HISTORY_MAX_LIMIT, MAX_SEATS, PLACE_IDS } from '../../schemas/rider-limits.js';
import { command, group, option, options, type FlagsOf } from '../spec.js';

const lang = option({ flags: '--lang <code>', description: 'language of product names, e.g. fr or en-US (default: from LC_ALL/LANG)' });
const from = option({ flags: '--from <lat,lng>', description: 'pickup location, e.g. 37.7749,-122.4194' });
const to = option({ flags: '--to <lat,lng>', description: 'destination, e.g. 37.7599,-122.4148' });
const fromPlace = option({ flags: '--from-place <place>', description: 'pickup at a saved place: home or work (see `platform rider places`)' });
const toPlace = option({ flags: '--to-place <place>', description: 'destination at a saved place: home or work' });
const seats = option({ flags: '--seats <n>', description: `seats for a shared ride, 1-${MAX_SEATS} (the API's default: ${MAX_SEATS})`, kind: 'int' });

const rideIdArg = { name: 'id', description: 'the request id (see `platform rider history`)', required: true, id: true } as const;
const placeArg = { name: 'place', description: 'home or work', required: true, choices: PLACE_IDS } as const;

const SERVER_TOKEN_HELP =
  "With PLATFORM_SERVER_TOKEN set, this call uses that server token (Authorization: Token) instead of the\nprofile's token; the sandbox's demo server token is sandbox-demo-server-token.";

const riderProductsOptions = options(option({ flags: '--at <lat,lng>', description: 'the location, e.g. 37.7749,-122.4194', required: true }), lang);
export type RiderProductsFlags = FlagsOf<typeof riderProductsOptions>;

const riderEstimatePriceOptions = options(option({ ...from, required: true }), option({ ...to, required: true }), seats, lang);
export type RiderEstimatePriceFlags = FlagsOf<typeof riderEstimatePriceOptions>;

const riderEstimateTimeOptions = options(option({ ...from, required: true }), option({ flags: '--product <id>', description: 'only this product' }), lang);
export type RiderEstimateTimeFlags = FlagsOf<typeof riderEstimateTimeOptions>;

const riderEstimateRideOptions = options(
  option({ flags: '--product <id|name>', description: "product id or name at the pickup (default: the API's, the cheapest there)" }),
  from,
  fromPlace,
  to,
  toPlace,
  seats,
);
export type RiderEstimateRideFlags = FlagsOf<typeof riderEstimateRideOptions>;

const riderMeOptions = options(option({ flags: '--apply-promo <code>', description: 'apply a promotion code first (PATCH /v1.2/me)' }));
export type RiderMeFlags = FlagsOf<typeof riderMeOptions>;

const riderRequestOptions = options(
  option({ flags: '--product <id|name>', description: 'product id or name at the pickup, e.g. Economy (see `rider products`)' }),
  from,
  fromPlace,
  to,
  toPlace,
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
const riderRequestUpdateOptions = options(
  to,
  toPlace,
  option({ flags: '--to-address <text>', description: 'the address of the new destination, as the driver sees it' }),
);
export type RiderRequestUpdateFlags = FlagsOf<typeof riderRequestUpdateOptions>;

const riderPlacesSetOptions = options(
  option({ flags: '--address <text>', description: 'the address, e.g. "685 Market St, San Francisco, CA"', required: true }),
);
export type RiderPlacesSetFlags = FlagsOf<typeof riderPlacesSetOptions>;

const riderHistoryOptions = options(
  option({ flags: '-L, --limit <n>', description: `trips to show, 1-${HISTORY_MAX_LIMIT} (default 5)`, kind: 'int' }),
  option({ flags: '--offset <n>', description: 'skip this many trips', kind: 'int' }),
);
export type RiderHistoryFlags = FlagsOf<typeof riderHistoryOptions>;

export const riderSpec = group({
  name: 'rider',
  summary: 'Rider API v1.2: products, estimates, rides',
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
      examples: [
        'platform rider products --at 37.7749,-122.4194',
        'platform rider products --at 48.8566,2.3522 --lang fr --json',
        'platform rider products get 7b6a...',
      ],
      load: () => import('./products.js'),
      subcommands: [
        command({
          name: 'get',
          summary: 'Show one product by id (ids differ per city)',
          description: SERVER_TOKEN_HELP,
          args: [{ name: 'id', description: 'the product id (see `platform rider products --at LAT,LNG`)', required: true, id: true }],
          options: options(lang),
          examples: ['platform rider products get 7b6a...', 'platform rider products get 7b6a... --lang fr --json'],
          load: () => import('./product-get.js'),
        }),
      ],
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
        command({
          name: 'ride',
          summary: 'The upfront fare, trip and pickup of one ride, as a request would get them (from coordinates or saved places)',
          options: riderEstimateRideOptions,
          examples: [
            'platform rider estimate ride --product Economy --from 37.7749,-122.4194 --to 37.7599,-122.4148',
            'platform rider estimate ride --from-place home --to-place work --json',
          ],
          load: () => import('./estimate/ride.js'),
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
      summary: 'Request a ride (with fare and surge confirmation); or get, cancel, update, map, current',
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
          name: 'update',
          summary: 'Change the destination of a ride (coordinates or a saved place)',
          args: [rideIdArg],
          options: riderRequestUpdateOptions,
          examples: ['platform rider request update 5f2a... --to 37.7599,-122.4148', 'platform rider request update 5f2a... --to-place work'],
          load: () => import('./request/update.js'),
        }),
        command({
          name: 'map',
          summary: 'The link to the map of a ride',
          args: [rideIdArg],
          examples: ['platform rider request map 5f2a...', 'platform rider request map 5f2a... --json | jq -r .href'],
          load: () => import('./request/map.js'),
        }),
        command({
          name: 'current',
          summary: 'Show the ride the rider is on now',
          examples: ['platform rider request current', 'platform rider request current --json'],
          load: () => import('./request/current.js'),
        }),
      ],
    }),
    group({
      name: 'places',
      summary: "The rider's saved places (home, work), for --from-place and --to-place",
      examples: ['platform rider places get home', 'platform rider places set work --address "1 Rue de Rivoli, Paris"'],
      subcommands: [
        command({
          name: 'get',
          summary: 'Show the address saved as home or work',
          args: [placeArg],
          examples: ['platform rider places get home', 'platform rider places get work --json'],
          load: () => import('./places/get.js'),
        }),
        command({
          name: 'set',
          summary: 'Save the address of home or work',
          args: [placeArg],
          options: riderPlacesSetOptions,
          examples: [
            'platform rider places set home --address "685 Market St, San Francisco, CA"',
            'platform rider places set work --address "1 Rue de Rivoli, Paris"',
          ],
          load: () => import('./places/set.js'),
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
