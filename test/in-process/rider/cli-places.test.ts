// The rider commands for the rest of spec 4.4, in-process against a real sandbox over HTTP:
// places get/set, --from-place/--to-place on `rider estimate ride` and `rider request`,
// `rider request map|update`, `rider products get`, and `platform api /v1.2/...` on the
// profile's rider_url.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxOnFreePort, type TestUser } from '../../helpers/cli.js';
import { SF, signedInUser } from '../../helpers/rider.js';

let sandbox: Sandbox;
let rider: TestUser;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  rider = await signedInUser(sandbox, 'profile request');
});
afterAll(() => sandbox.close());

const HOME = '685 Market St, San Francisco, CA';
const WORK = '1 Ferry Building, San Francisco';
const sent = (method: string, path: RegExp) => sandbox.stats.requests.filter((r) => r.method === method && path.test(r.path)).length;

interface Product {
  product_id: string;
  display_name: string;
}

describe('rider places', () => {
  it('sets and gets home and work; an unset place and an unknown city are one-line errors', async () => {
    const unset = await rider.run(['rider', 'places', 'get', 'home']);
    expect(unset.code).toBe(1);
    expect(unset.stderr.trim().split('\n')).toHaveLength(1);
    expect(unset.stderr).toMatch(/^not_found: No home place is saved yet/);

    const set = await rider.run(['rider', 'places', 'set', 'home', '--address', HOME, '--json']);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ address: HOME });
    expect(set.stderr).toContain(`Saved home: ${HOME}`);
    const table = await rider.run(['rider', 'places', 'get', 'home'], { tty: true, env: { NO_COLOR: '1' } });
    expect(table.stdout).toMatch(/ADDRESS[\s\S]*685 Market St, San Francisco, CA/);
    expect(await rider.json(['rider', 'places', 'set', 'work', '--address', WORK])).toEqual({ address: WORK });

    const nowhere = await rider.run(['rider', 'places', 'set', 'work', '--address', 'Main St, Springfield']);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toMatch(/^validation_failed: The address could not be located: address: the sandbox locates addresses in San Francisco/);
    expect(await rider.json(['rider', 'places', 'get', 'work'])).toEqual({ address: WORK });
  });

  it('rejects a place other than home or work, and a missing --address, with exit 2 and nothing sent', async () => {
    for (const args of [
      ['rider', 'places', 'get', 'gym'],
      ['rider', 'places', 'set', 'home'],
      ['rider', 'places', 'set', 'home', '--address', '  '],
    ]) {
      sandbox.resetStats();
      const result = await rider.run(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/gym|--address/);
      expect(sandbox.stats.apiRequests).toBe(0);
    }
  });
});

describe('trips from and to saved places', () => {
  let economy: Product;
  beforeAll(async () => {
    await rider.run(['rider', 'places', 'set', 'home', '--address', HOME]);
    await rider.run(['rider', 'places', 'set', 'work', '--address', WORK]);
    economy = (await rider.json<Product[]>(['rider', 'products', '--at', SF.downtown])).find((p) => p.display_name === 'Economy')!;
  });

  it('estimates a ride between places (POST /v1.2/requests/estimate with place ids)', async () => {
    sandbox.resetStats();
    const estimate = await rider.json<{ price: { fare_id: string; display: string }; trip: { distance_estimate: number } }>([
      'rider',
      'estimate',
      'ride',
      '--product',
      economy.product_id,
      '--from-place',
      'home',
      '--to-place',
      'work',
    ]);
    expect(estimate.price.fare_id).toBeTruthy();
    expect(estimate.trip.distance_estimate).toBeGreaterThan(0);
    const table = await rider.run(['rider', 'estimate', 'ride', '--from', SF.downtown, '--to-place', 'work'], { tty: true, env: { NO_COLOR: '1' } });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/FARE\s+SURGE\s+DISTANCE\s+DURATION\s+PICKUP\s+FARE ID/);
  });

  it('requests, maps and redirects a ride with places; ends are one of --to or --to-place', async () => {
    const ride = await rider.json<{ request_id: string; status: string }>([
      'rider',
      'request',
      '--product',
      economy.product_id,
      '--from-place',
      'home',
      '--to-place',
      'work',
      '--yes',
    ]);
    expect(ride.status).toBe('processing');
    const id = ride.request_id;

    const map = await rider.json<{ request_id: string; href: string }>(['rider', 'request', 'map', id]);
    expect(map).toEqual({ request_id: id, href: expect.stringMatching(new RegExp(`/${id}$`)) });

    sandbox.resetStats();
    const updated = await rider.run(['rider', 'request', 'update', id, '--to', SF.mission, '--json']);
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ request_id: id });
    expect(updated.stderr).toContain(`Ride ${id} now goes to ${SF.mission}.`);
    expect(sent('PATCH', new RegExp(`/v1.2/requests/${id}$`))).toBe(1);
    expect((await rider.run(['rider', 'request', 'update', id, '--to-place', 'work'])).code).toBe(0);

    for (const [args, message] of [
      [['rider', 'request', 'update', id, '--to', SF.mission, '--to-place', 'work'], /give --to or --to-place, not both/],
      [['rider', 'request', 'update', id], /--to or --to-place is required/],
      [['rider', 'request', 'update', id, '--to-place', 'gym'], /--to-place "gym" is not a place: use home or work/],
      [['rider', 'estimate', 'ride', '--from', SF.downtown, '--from-place', 'home'], /give --from or --from-place, not both/],
      [
        ['rider', 'request', '--product', 'Economy', '--from-place', 'home', '--to', SF.mission, '--yes'],
        /--product "Economy" is not a product id; with --from-place home give the product's id/,
      ],
    ] as const) {
      sandbox.resetStats();
      const result = await rider.run([...args]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(message);
      expect(
        sandbox.stats.requests.filter((r) => r.method !== 'GET'),
        args.join(' '),
      ).toEqual([]);
    }
    expect((await rider.run(['rider', 'request', 'map'])).code).toBe(2);
    await rider.run(['rider', 'request', 'cancel', id]);
    // An ended ride: each command words it as what it tried.
    const update = await rider.run(['rider', 'request', 'update', id, '--to', SF.mission]);
    expect(update.code).toBe(1);
    expect(update.stderr.trim()).toMatch(
      /^ride_already_ended: The ride has already ended \(rider_canceled\).*; an ended ride's destination cannot change; request a new ride/,
    );
    expect(update.stderr).not.toMatch(/nothing to cancel/);
    const cancel = await rider.run(['rider', 'request', 'cancel', id]);
    expect(cancel.stderr.trim()).toMatch(/^ride_already_ended: The ride has already ended \(rider_canceled\).*; nothing to cancel$/);
  });

  it('an unset place is the API error on one line, exit 1', async () => {
    const other = await signedInUser(sandbox, 'profile request', 'no-payment');
    const result = await other.run(['rider', 'estimate', 'ride', '--from-place', 'work', '--to', SF.mission]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^validation_failed: The work place is not set: start_place_id: no work place is saved/);
  });
});

describe('rider products get', () => {
  it('shows one product by id; an unknown id is not_found', async () => {
    const [first] = await rider.json<Product[]>(['rider', 'products', '--at', SF.downtown]);
    expect(await rider.json<Product>(['rider', 'products', 'get', first!.product_id])).toMatchObject(first!);
    const table = await rider.run(['rider', 'products', 'get', first!.product_id], { tty: true, env: { NO_COLOR: '1' } });
    expect(table.stdout).toMatch(new RegExp(`${first!.product_id}\\s+Pool`));
    const unknown = await rider.run(['rider', 'products', 'get', 'no-such-product']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^not_found: No product with id no-such-product/);
  });
});

describe('platform api on rider paths', () => {
  it("sends /v1.2/... to the profile's rider_url, not its base_url", async () => {
    const adsHost = await sandboxOnFreePort();
    try {
      const env = { PLATFORM_BASE_URL: adsHost.url, PLATFORM_RIDER_URL: sandbox.url, PLATFORM_AUTH_URL: sandbox.url };
      const me = await rider.run(['api', '/v1.2/me'], { env });
      expect(me.code).toBe(0);
      expect(JSON.parse(me.stdout)).toMatchObject({ first_name: expect.any(String) });
      const put = await rider.run(['api', 'PUT', '/v1.2/places/home', '-f', `address=${HOME}`], { env });
      expect(JSON.parse(put.stdout)).toEqual({ address: HOME });
      const full = await rider.run(['api', `${sandbox.url}/v1.2/places/home`], { env });
      expect(JSON.parse(full.stdout)).toEqual({ address: HOME });
      expect(adsHost.stats.requests.filter((r) => r.path.startsWith('/v1.2'))).toEqual([]);
      // A rider path on the ads host's origin is not where the rider token goes.
      const elsewhere = await rider.run(['api', `${adsHost.url}/v1.2/me`], { env });
      expect(elsewhere.code).toBe(2);
      expect(elsewhere.stderr).toMatch(/is not on the profile's rider API/);
    } finally {
      await adsHost.close();
    }
  });
});
