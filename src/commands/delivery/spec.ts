// `platform delivery ...`: its commands, flags, help and examples. Data only: command code
// loads when it runs. Each command's flags type is derived from its options here.
import { command, group, option, options, type FlagsOf } from '../spec.js';

const deliveryQuoteOptions = options(
  option({ flags: '--customer <uuid>', description: "the organization's customer id (a UUID)", required: true, kind: 'id' }),
  option({ flags: '--pickup <address>', description: 'pickup address', required: true }),
  option({ flags: '--dropoff <address>', description: 'dropoff address', required: true }),
);
export type DeliveryQuoteFlags = FlagsOf<typeof deliveryQuoteOptions>;

export const deliverySpec = group({
  name: 'delivery',
  summary: 'Delivery quotes (scope eats.deliveries)',
  description: 'Delivery quotes (needs a client-credentials profile with scope eats.deliveries).',
  examples: [
    'PLATFORM_CLIENT_SECRET=sandbox-delivery-secret platform auth login --client-credentials --profile eats --client-id sandbox-delivery-client --scopes eats.deliveries',
    'platform delivery quote --profile eats --customer 7b6f1b36-3a0e-4d5b-9a3e-2f1c9d3e8a11 --pickup "1 Market St, San Francisco" --dropoff "500 Castro St, San Francisco"',
  ],
  subcommands: [
    command({
      name: 'quote',
      summary: 'Quote the fee and dropoff time of a delivery',
      description:
        'Sign in as the delivery application first, e.g. on the sandbox:\n' +
        '  PLATFORM_CLIENT_SECRET=sandbox-delivery-secret platform auth login --client-credentials --profile eats \\\n' +
        '    --client-id sandbox-delivery-client --scopes eats.deliveries\n' +
        "The fee is shown in the currency's units in tables and CSV, as integer minor units (cents) in JSON.",
      options: deliveryQuoteOptions,
      examples: [
        'platform delivery quote --profile eats --customer 7b6f1b36-3a0e-4d5b-9a3e-2f1c9d3e8a11 --pickup "1 Market St, San Francisco" --dropoff "500 Castro St, San Francisco"',
        'platform delivery quote --profile eats --customer 7b6f1b36-3a0e-4d5b-9a3e-2f1c9d3e8a11 --pickup "10 Rue de Rivoli, Paris" --dropoff "5 Avenue Anatole France, Paris" --json',
      ],
      load: () => import('./quote.js'),
    }),
  ],
});
