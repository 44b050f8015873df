// The rider and delivery commands driven in-process against a real sandbox over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DELIVERY_CLIENT_ID, SANDBOX_DELIVERY_CLIENT_SECRET, SANDBOX_DEMO_SERVER_TOKEN } from '../../../src/sandbox/clients.js';
import { sandboxOnFreePort, TestUser } from '../../helpers/cli.js';
import { NYC, PARIS, runInteractive, SF, signedInUser } from '../../helpers/rider.js';

// Rides here move at wall-clock speed (they stay current for minutes); the --wait tests
// use their own sandbox whose clock runs 50000 times faster.
let sandbox: Sandbox;
let rider: TestUser;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  rider = await signedInUser(sandbox, 'profile request request_receipt');
});
afterAll(() => sandbox.close());

/** Ride requests the sandbox received since the last resetStats(). */
const rideRequestsSent = () => sandbox.stats.requests.filter((r) => r.method === 'POST' && r.path === '/v1.2/requests').length;

interface Product {
  product_id: string;
  display_name: string;
  product_group: string;
}
interface Price {
  product_id: string;
  estimate: string;
  low_estimate: number | null;
  surge_multiplier: number;
  currency_code: string | null;
}

describe('rider catalog commands', () => {
  it('lists products as a table and as JSON, localized with --lang', async () => {
    const table = await rider.run(['rider', 'products', '--at', SF.downtown], { tty: true, env: { NO_COLOR: '1' } });
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+GROUP\s+SEATS\s+SHARED\s+PRICE\s+DESCRIPTION/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/)[1])).toEqual(['Pool', 'Economy', 'Economy XL', 'Black', 'Black SUV', 'Taxi']);
    expect(table.stdout).toMatch(/Economy\s+platformx\s+4\s+\$2\.20 \+ \$0\.26\/min \+ \$1\.30\/mile \(min \$7\.65\)/);
    expect(table.stdout).toMatch(/Taxi\s+taxi\s+4\s+metered/);
    const paris = await rider.json<Product[]>(['rider', 'products', '--at', PARIS.louvre, '--lang', 'fr']);
    expect(paris.map((p) => p.display_name)).toEqual(['Économique', 'Économique XL', 'Berline', 'Taxi']);
    const csv = await rider.run(['rider', 'products', '--at', PARIS.louvre, '-o', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe(
      'product_id,display_name,product_group,capacity,shared,currency_code,base,minimum,cost_per_minute,cost_per_distance,distance_unit,description',
    );
    const nowhere = await rider.run(['rider', 'products', '--at', '0,0']);
    expect(nowhere).toMatchObject({ code: 0, stdout: '' });
    expect(nowhere.stderr).toMatch(/outside every service area/);
  });

  it('estimates prices with money formatted for the currency; JSON stays raw', async () => {
    const table = await rider.run(['rider', 'estimate', 'price', '--from', PARIS.louvre, '--to', PARIS.eiffel], { tty: true });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Économique|Economy/);
    expect(table.stdout).toMatch(/Economy\s+€\d+-\d+\s+€\d+\s+€\d+/);
    expect(table.stdout).toMatch(/Taxi\s+Metered/);
    const prices = await rider.json<Price[]>(['rider', 'estimate', 'price', '--from', SF.downtown, '--to', SF.mission]);
    expect(prices[1]).toMatchObject({ currency_code: 'USD', surge_multiplier: 1, estimate: expect.stringMatching(/^\$\d+-\d+$/) });
    const longer = await rider.json<Price[]>(['rider', 'estimate', 'price', '--from', SF.downtown, '--to', SF.airport]);
    for (let i = 0; i < 5; i++) expect(longer[i]!.low_estimate!).toBeGreaterThanOrEqual(prices[i]!.low_estimate!);
    const surged = await rider.run(['rider', 'estimate', 'price', '--from', SF.soma, '--to', SF.mission], { tty: true });
    expect(surged.stdout).toMatch(/Economy\s+\$\d+-\d+.*x1\.8/);
    expect(surged.stderr).toMatch(/Surge pricing is in effect/);
  });

  it('estimates pickup times, leaving out products without drivers', async () => {
    const times = await rider.json<Array<{ display_name: string; estimate: number }>>(['rider', 'estimate', 'time', '--from', SF.downtown]);
    expect(times.map((t) => t.display_name)).toEqual(['Pool', 'Economy', 'Economy XL', 'Black', 'Taxi']);
    const one = await rider.json<unknown[]>([
      'rider',
      'estimate',
      'time',
      '--from',
      SF.downtown,
      '--product',
      (await rider.json<Product[]>(['rider', 'products', '--at', SF.downtown]))[1]!.product_id,
    ]);
    expect(one).toHaveLength(1);
  });

  it('rejects bad input naming the flag, exit 2, nothing sent', async () => {
    for (const [args, message] of [
      [['rider', 'estimate', 'price', '--from', '91,200', '--to', SF.mission], /--from "91,200": latitude 91 is outside -90\.\.90/],
      [['rider', 'estimate', 'price', '--from', SF.downtown, '--to', 'somewhere'], /--to "somewhere" is not a location/],
      [['rider', 'estimate', 'price', '--from', SF.downtown, '--to', SF.mission, '--seats', '3'], /--seats 3: shared rides take 1 or 2 seats/],
      [['rider', 'products', '--at', '37.7,-190'], /--at "37\.7,-190": longitude -190 is outside -180\.\.180/],
      [['rider', 'request', '--product', 'Economy', '--from', SF.downtown, '--to', '1,2,3'], /--to "1,2,3" is not a location/],
      [['delivery', 'quote', '--customer', 'acme', '--pickup', 'a', '--dropoff', 'b'], /--customer "acme" is not a UUID/],
    ] as const) {
      sandbox.resetStats();
      const result = await rider.run([...args]);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
      expect(sandbox.stats.apiRequests).toBe(0);
    }
  });

  it('shows the profile and applies a promotion code', async () => {
    const me = await rider.json<{ email: string; rider_id: string }>(['rider', 'me']);
    expect(me).toMatchObject({ email: 'dana.demo@example.com' });
    const table = await rider.run(['rider', 'me', '--apply-promo', 'welcome10'], { tty: true });
    expect(table.stderr).toMatch(/Applied promotion WELCOME10: \$10 off/);
    expect(table.stdout).toMatch(/Dana Demo\s+dana\.demo@example\.com/);
    const bad = await rider.run(['rider', 'me', '--apply-promo', 'NOPE']);
    expect(bad.code).toBe(1);
    // The line names the profile the call was made with.
    expect(bad.stderr.trim()).toBe('validation_failed: Invalid request: applied_promotion_codes: unknown promotion code NOPE (profile local)');
  });
});

describe('server tokens', () => {
  it('work for products and price estimates only', async () => {
    const anonymous = new TestUser(sandbox, { PLATFORM_SERVER_TOKEN: SANDBOX_DEMO_SERVER_TOKEN });
    expect((await anonymous.json<Product[]>(['rider', 'products', '--at', SF.downtown])).length).toBe(6);
    expect((await anonymous.json<Price[]>(['rider', 'estimate', 'price', '--from', SF.downtown, '--to', SF.mission])).length).toBe(6);
    // The default sandbox profile has a client-credentials token: no rider behind it.
    const time = await anonymous.run(['rider', 'estimate', 'time', '--from', SF.downtown]);
    expect(time.code).toBe(4);
    expect(time.stderr).toMatch(
      /^insufficient_scope: .*\(profile local\); sign in as a rider with `platform auth login --scopes "[^"]*profile request" --profile local`/,
    );
    const wrong = await new TestUser(sandbox, { PLATFORM_SERVER_TOKEN: 'not-a-token' }).run(['rider', 'products', '--at', SF.downtown]);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toMatch(/^unauthorized: Invalid server token \(profile local\); check PLATFORM_SERVER_TOKEN/);
  });
});

describe('rider request', () => {
  const trip = ['--from', SF.downtown, '--to', SF.mission];

  it('asks before requesting; refusing sends nothing; accepting creates the ride; get, current, cancel', async () => {
    const user = await signedInUser(sandbox);
    sandbox.resetStats();
    const refused = await runInteractive(user, ['rider', 'request', '--product', 'economy', ...trip], ['n']);
    expect(refused.code).toBe(1);
    expect(refused.prompts).toEqual([expect.stringMatching(/Request this ride\?/)]);
    expect(refused.stderr).toMatch(/Economy: \$\d+\.\d\d, [\d.]+ mi, about \d+ min, pickup in about \d+ min, fare valid for \d+ s/);
    expect(refused.stderr).toMatch(/not requested: you declined/);
    expect(rideRequestsSent()).toBe(0);
    expect((await user.run(['rider', 'request', 'current'])).stderr).toMatch(/^no_current_trip/);

    const accepted = await runInteractive(user, ['rider', 'request', '--product', 'Economy', ...trip, '--json'], ['y']);
    expect(accepted.code).toBe(0);
    const ride = JSON.parse(accepted.stdout) as { request_id: string; status: string };
    expect(ride.status).toBe('processing');
    expect((await user.json<{ request_id: string }>(['rider', 'request', 'current'])).request_id).toBe(ride.request_id);
    const again = await user.run(['rider', 'request', '--product', 'Economy', ...trip, '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n').at(-1)).toMatch(/^current_trip_exists: .*platform rider request cancel ID/);
    const canceled = await user.run(['rider', 'request', 'cancel', ride.request_id, '--json']);
    expect(canceled.code).toBe(0);
    expect(JSON.parse(canceled.stdout)).toMatchObject({ request_id: ride.request_id, status: 'rider_canceled' });
    expect((await user.json<{ status: string }>(['rider', 'request', 'get', ride.request_id])).status).toBe('rider_canceled');
    expect((await user.run(['rider', 'request', 'get'])).code).toBe(2);
  });

  it('without a terminal it never asks: it needs --yes', async () => {
    const user = await signedInUser(sandbox);
    sandbox.resetStats();
    const result = await user.run(['rider', 'request', '--product', 'Economy', ...trip]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not requested: confirmation is needed and stdin is not a terminal; add --yes/);
    expect(rideRequestsSent()).toBe(0);
  });

  it('surge: asks again and retries with the confirmation; refusing surge requests nothing', async () => {
    const user = await signedInUser(sandbox);
    const soma = ['--from', SF.soma, '--to', SF.mission];
    sandbox.resetStats();
    const refused = await runInteractive(user, ['rider', 'request', '--product', 'Economy', ...soma], ['y', 'n']);
    expect(refused.prompts).toEqual([expect.stringMatching(/Request this ride\?/), expect.stringMatching(/Accept surge pricing of x1\.8\?/)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not requested: you declined surge pricing of x1\.8/);
    expect(rideRequestsSent()).toBe(1); // the one answered 409 surge
    expect((await user.run(['rider', 'request', 'current'])).code).toBe(1);

    const accepted = await runInteractive(user, ['rider', 'request', '--product', 'Economy', ...soma, '--json'], ['y', 'y']);
    expect(accepted.code).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ status: 'processing', surge_multiplier: 1.8 });
    const current = await user.json<{ request_id: string }>(['rider', 'request', 'current']);
    await user.run(['rider', 'request', 'cancel', current.request_id]);

    // No terminal: with --yes but without --accept-surge it stops and gives the confirmation link.
    const stopped = await user.run(['rider', 'request', '--product', 'Economy', ...soma, '--yes']);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(
      /surge: not requested; fares are x1\.8 now\. Accept with --accept-surge, or confirm at http:\/\/\S+\/v1\.2\/surge-confirmations\/sc_\w+/,
    );
    const through = await user.run(['rider', 'request', '--product', 'Economy', ...soma, '--yes', '--accept-surge', '--json']);
    expect(through.code).toBe(0);
    expect(JSON.parse(through.stdout)).toMatchObject({ surge_multiplier: 1.8 });
    await user.run(['rider', 'request', 'cancel', JSON.parse(through.stdout).request_id]);
  });

  it('fare expired while asking: estimates again once and asks again', async () => {
    const user = await signedInUser(sandbox);
    // The fare of the first estimate expires while the first question waits for its answer.
    const result = await runInteractive(user, ['rider', 'request', '--product', 'Economy', ...trip, '--json'], ['y', 'y'], (index) => {
      if (index === 0) sandbox.rider.expireFares();
    });
    expect(result.stderr).toMatch(/The fare expired; estimating again\./);
    expect(result.prompts).toHaveLength(2);
    expect(result.code).toBe(0);
    const ride = JSON.parse(result.stdout) as { request_id: string };
    await user.run(['rider', 'request', 'cancel', ride.request_id]);
  });

  it('prints each spec 7.2 error on one line with what to do', async () => {
    const cases: Array<[string[], RegExp, TestUser?]> = [
      [['--product', 'Economy', '--from', SF.downtown, '--to', SF.downtown], /^same_pickup_dropoff: .*give a --to different from --from$/],
      [['--product', 'Economy', '--from', SF.downtown, '--to', '34.0522,-118.2437'], /^distance_exceeded: .*within 100 miles/],
      [['--product', 'Economy', '--from', SF.downtown, '--to', '38.5816,-121.4944'], /^outside_service_area: .*rider products --at/],
      [['--product', 'Pool', '--from', NYC.midtown, '--to', NYC.brooklyn, '--seats', '2'], /^invalid_seat_count: .*fewer --seats/],
      [
        ['--product', 'Pool', '--from', '37.95,-122.52', '--to', '37.60,-122.20'],
        /^validation_failed: .*: end_latitude: destination unsupported .*; end_longitude: destination unsupported/,
      ],
      [['--product', 'Limo', '--from', SF.downtown, '--to', SF.mission], /^--product "Limo" is not a product at .*choose one of: Pool, Economy/],
      [['--product', 'Economy', ...trip], /^missing_payment_method: .*add a payment method/, await signedInUser(sandbox, 'profile request', 'no-payment')],
      [['--product', 'Economy', ...trip], /^forbidden: .*not allowed to request rides/, await signedInUser(sandbox, 'profile request', 'forbidden')],
      [
        ['--product', 'Economy', ...trip],
        /^insufficient_scope: .*needs the request scope \(profile \w+\); sign in as a rider/,
        await signedInUser(sandbox, 'profile'),
      ],
    ];
    for (const [args, pattern, who] of cases) {
      const result = await (who ?? rider).run(['rider', 'request', ...args, '--yes']);
      const lines = result.stderr.trim().split('\n');
      expect(lines.at(-1), result.stderr).toMatch(pattern);
      expect(result.code).toBeGreaterThan(0);
    }
  });
});

describe('rider request --wait (sandbox clock 50000x)', () => {
  const trip = ['--from', SF.downtown, '--to', SF.mission];
  let fast: Sandbox;
  beforeAll(async () => {
    fast = await sandboxOnFreePort({ timeScale: 50_000 });
  });
  afterAll(() => fast.close());

  it('--wait follows a ride to completed on the fast clock and prints the receipt', async () => {
    const user = await signedInUser(fast, 'profile request request_receipt');
    const result = await user.run(['rider', 'request', '--product', 'Economy', ...trip, '--yes', '--wait', '--expense-code', 'TRIP7', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/: processing/);
    expect(result.stderr).toMatch(/: completed \(Sam Sandbox, Toyota Prius SANDBOX1\)/);
    const receipt = JSON.parse(result.stdout);
    expect(receipt).toMatchObject({
      currency_code: 'USD',
      expense_code: 'TRIP7',
      charges: expect.arrayContaining([expect.objectContaining({ name: 'Base Fare' })]),
    });
    expect(receipt.total_charged).toBeGreaterThan(0);
    const history = await user.json<Array<{ request_id: string; status: string }>>(['rider', 'history']);
    expect(history[0]).toMatchObject({ request_id: receipt.request_id, status: 'completed' });
    const table = await user.run(['rider', 'history'], { tty: true });
    expect(table.stdout).toMatch(/completed\s+San Francisco/);
  });

  it('--wait on a terminal follows the ride with a spinner on stderr and still prints the receipt', async () => {
    const user = await signedInUser(fast, 'profile request request_receipt');
    const result = await user.run(['rider', 'request', '--product', 'Economy', ...trip, '--yes', '--wait', '-o', 'json'], { tty: true });
    expect(result.code).toBe(0);
    // A spinner frame (ora) instead of one line per change.
    expect(result.stderr).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Ride \w+: processing/);
    expect(result.stderr).toMatch(/completed/);
    expect(JSON.parse(result.stdout)).toMatchObject({ currency_code: 'USD' });
  });

  it('--wait ends with exit 1 when no driver is found', async () => {
    const user = await signedInUser(fast);
    const products = await user.json<Product[]>(['rider', 'products', '--at', SF.downtown]);
    const xl = products.find((p) => p.product_group === 'platformxl')!;
    await fetch(`${fast.url}/v1.2/sandbox/products/${xl.product_id}`, {
      method: 'PUT',
      body: JSON.stringify({ drivers_available: false }),
      headers: { 'content-type': 'application/json' },
    });
    try {
      const result = await user.run(['rider', 'request', '--product', xl.product_id, ...trip, '--yes', '--wait']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/no driver near now/);
      expect(result.stderr).toMatch(/The ride ended without a trip: no_drivers_available\./);
    } finally {
      await fetch(`${fast.url}/v1.2/sandbox/products/${xl.product_id}`, {
        method: 'PUT',
        body: JSON.stringify({ drivers_available: true }),
        headers: { 'content-type': 'application/json' },
      });
    }
  });
});

describe('delivery quote', () => {
  it('quotes with a delivery profile; a profile without eats.deliveries is told how to sign in', async () => {
    const eats = new TestUser(sandbox, { PLATFORM_CLIENT_SECRET: SANDBOX_DELIVERY_CLIENT_SECRET });
    const login = await eats.run([
      'auth',
      'login',
      '--client-credentials',
      '--profile',
      'eats',
      '--client-id',
      SANDBOX_DELIVERY_CLIENT_ID,
      '--scopes',
      'eats.deliveries',
    ]);
    expect(login.code, login.stderr).toBe(0);
    const args = [
      'delivery',
      'quote',
      '--profile',
      'eats',
      '--customer',
      '7b6f1b36-3a0e-4d5b-9a3e-2f1c9d3e8a11',
      '--pickup',
      '1 Market St, San Francisco',
      '--dropoff',
      '500 Castro St, San Francisco',
    ];
    const quote = await eats.json<{ id: string; fee: number; currency: string }>(args);
    expect(quote).toMatchObject({ id: expect.stringMatching(/^dqt_/), currency: 'usd' });
    expect(Number.isInteger(quote.fee)).toBe(true);
    const table = await eats.run(args, { tty: true });
    const cents = String(quote.fee % 100).padStart(2, '0');
    expect(table.stdout).toContain(`$${Math.floor(quote.fee / 100)}.${cents}`);
    const ads = await new TestUser(sandbox).run(args.filter((a, i) => a !== '--profile' && args[i - 1] !== '--profile'));
    expect(ads.code).toBe(4);
    expect(ads.stderr).toMatch(/^PermissionDenied: the token lacks scope eats\.deliveries \(profile local\); the delivery API takes a token of a delivery app/);
    // The login it names works as printed on a new config, and the quote then goes through.
    const fresh = new TestUser(sandbox);
    const suggested = /`platform (auth login[^`]*)`/.exec(ads.stderr)![1]!.split(' ');
    expect((await fresh.run(suggested)).code).toBe(0);
    expect((await fresh.run(args)).code).toBe(0);
  });
});
