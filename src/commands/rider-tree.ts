// The `rider` and `delivery` branches of the command tree (src/commands/tree.ts mounts
// them). Plain data, and nothing heavy imported (it loads with every --help): leaves name
// their module lazily.
import type { CommandSpec, OptionSpec } from './spec.js';
import { HISTORY_MAX_LIMIT, MAX_SEATS } from '../schemas/rider-limits.js';

const lang: OptionSpec = { flags: '--lang <code>', description: 'language of product names, e.g. fr or en-US (default: from LC_ALL/LANG)' };
const from: OptionSpec = { flags: '--from <lat,lng>', description: 'pickup location, e.g. 37.7749,-122.4194' };
const to: OptionSpec = { flags: '--to <lat,lng>', description: 'destination, e.g. 37.7599,-122.4148' };
const seats: OptionSpec = { flags: '--seats <n>', description: `seats for a shared ride, 1-${MAX_SEATS} (the API's default: ${MAX_SEATS})`, kind: 'int' };

const SERVER_TOKEN_HELP = 'With PLATFORM_SERVER_TOKEN set, this call uses that server token (Authorization: Token) instead of the\nprofile\'s token; the sandbox\'s demo server token is sandbox-demo-server-token.';

export const riderTree: CommandSpec = {
  name: 'rider',
  summary: 'Products, fare and time estimates, and ride requests (rider API v1.2)',
  description:
    'The rider API acts for a signed-in rider: sign in with `platform auth login --scopes "profile request"`.\n' +
    'Money is shown with its currency in tables and as the API sends it (floats) in JSON.',
  examples: ['platform rider products --at 37.7749,-122.4194', 'platform rider request --product Economy --from 37.7749,-122.4194 --to 37.7599,-122.4148 --wait'],
  subcommands: [
    {
      name: 'products',
      summary: 'Products available at a location, in display order',
      description: SERVER_TOKEN_HELP,
      options: [{ flags: '--at <lat,lng>', description: 'the location, e.g. 37.7749,-122.4194', required: true }, lang],
      examples: ['platform rider products --at 37.7749,-122.4194', 'platform rider products --at 48.8566,2.3522 --lang fr --json'],
      load: () => import('./rider/products.js'),
    },
    {
      name: 'estimate',
      summary: 'Estimate prices or pickup times',
      examples: ['platform rider estimate price --from 37.7749,-122.4194 --to 37.7599,-122.4148', 'platform rider estimate time --from 37.7749,-122.4194'],
      subcommands: [
        {
          name: 'price',
          summary: 'Price estimates of every product for a trip (surge included)',
          description: SERVER_TOKEN_HELP,
          options: [{ ...from, required: true }, { ...to, required: true }, seats, lang],
          examples: ['platform rider estimate price --from 37.7749,-122.4194 --to 37.7599,-122.4148', 'platform rider estimate price --from 40.7549,-73.9840 --to 40.6782,-73.9442 --seats 2 -o csv'],
          load: () => import('./rider/estimate/price.js'),
        },
        {
          name: 'time',
          summary: 'Pickup ETAs per product (products with no driver near are absent)',
          options: [{ ...from, required: true }, { flags: '--product <id>', description: 'only this product' }, lang],
          examples: ['platform rider estimate time --from 37.7749,-122.4194', 'platform rider estimate time --from 48.8606,2.3376 --lang fr --json'],
          load: () => import('./rider/estimate/time.js'),
        },
      ],
    },
    {
      name: 'me',
      summary: "The signed-in rider's profile",
      options: [{ flags: '--apply-promo <code>', description: 'apply a promotion code first (PATCH /v1.2/me)' }],
      examples: ['platform rider me', 'platform rider me --apply-promo FREERIDE --json'],
      load: () => import('./rider/me.js'),
    },
    {
      name: 'request',
      summary: 'Request a ride (with fare and surge confirmation); or get, cancel, current',
      description:
        'Without an action: estimates the ride, shows the fare and asks before requesting (--yes does not ask).\n' +
        'When surge pricing is in effect it shows the multiplier and asks again (--accept-surge accepts it).\n' +
        'An expired fare is estimated again once, and asked again. Without a terminal it never asks: it\n' +
        'fails (exit 1) unless --yes (and, under surge, --accept-surge) are given.\n' +
        '--wait follows the ride until it ends and prints the receipt (exit 1 when it ends without a trip).\n' +
        'Actions: `get ID`, `cancel ID`, `current`.',
      args: [
        { name: 'action', description: 'get, cancel or current (none: request a ride)', choices: ['get', 'cancel', 'current'] },
        { name: 'id', description: 'the request id (get, cancel)' },
      ],
      options: [
        { flags: '--product <id|name>', description: 'product id or name at the pickup, e.g. Economy (see `rider products`)' },
        from,
        to,
        seats,
        { flags: '-y, --yes', description: 'request without asking for confirmation' },
        { flags: '--accept-surge', description: 'accept surge pricing without asking' },
        { flags: '--wait', description: 'follow the ride until it ends, then print the receipt' },
        { flags: '--expense-code <code>', description: 'alphanumeric expense code shown on the receipt' },
        { flags: '--expense-memo <text>', description: 'expense memo shown on the receipt' },
      ],
      examples: [
        'platform rider request --product Economy --from 37.7749,-122.4194 --to 37.7599,-122.4148',
        'platform rider request --product Economy --from 37.7842,-122.4016 --to 37.7599,-122.4148 --yes --accept-surge --wait',
        'platform rider request get 5f2a...',
        'platform rider request cancel 5f2a...',
        'platform rider request current --json',
      ],
      load: () => import('./rider/request.js'),
    },
    {
      name: 'history',
      summary: "The rider's trips, newest first",
      options: [
        { flags: '-L, --limit <n>', description: `trips to show, 1-${HISTORY_MAX_LIMIT} (default 5)`, kind: 'int' },
        { flags: '--offset <n>', description: 'skip this many trips', kind: 'int' },
      ],
      examples: ['platform rider history', 'platform rider history --limit 50 --offset 50 -o csv'],
      load: () => import('./rider/history.js'),
    },
  ],
};

export const deliveryTree: CommandSpec = {
  name: 'delivery',
  summary: 'Delivery quotes (needs a client-credentials profile with scope eats.deliveries)',
  examples: [
    'PLATFORM_CLIENT_SECRET=sandbox-delivery-secret platform auth login --client-credentials --profile eats --client-id sandbox-delivery-client --scopes eats.deliveries',
    'platform delivery quote --profile eats --customer 7b6f1b36-3a0e-4d5b-9a3e-2f1c9d3e8a11 --pickup "1 Market St, San Francisco" --dropoff "500 Castro St, San Francisco"',
  ],
  subcommands: [
    {
      name: 'quote',
      summary: 'Quote the fee and dropoff time of a delivery',
      description:
        'Sign in as the delivery application first, e.g. on the sandbox:\n' +
        '  PLATFORM_CLIENT_SECRET=sandbox-delivery-secret platform auth login --client-credentials --profile eats \\\n' +
        '    --client-id sandbox-delivery-client --scopes eats.deliveries\n' +
        'The fee is shown in the currency\'s units in tables and CSV, as integer minor units (cents) in JSON.',
      options: [
        { flags: '--customer <uuid>', description: "the organization's customer id (a UUID)", required: true },
        { flags: '--pickup <address>', description: 'pickup address', required: true },
        { flags: '--dropoff <address>', description: 'dropoff address', required: true },
      ],
      examples: [
        'platform delivery quote --profile eats --customer 7b6f1b36-3a0e-4d5b-9a3e-2f1c9d3e8a11 --pickup "1 Market St, San Francisco" --dropoff "500 Castro St, San Francisco"',
        'platform delivery quote --profile eats --customer 7b6f1b36-3a0e-4d5b-9a3e-2f1c9d3e8a11 --pickup "10 Rue de Rivoli, Paris" --dropoff "5 Avenue Anatole France, Paris" --json',
      ],
      load: () => import('./delivery/quote.js'),
    },
  ],
};
