// The rider sandbox over HTTP: products, estimates, errors of spec 7.2, surge, trips on the
// simulated clock, server-token limits, delivery quotes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DELIVERY_CLIENT_ID, SANDBOX_DELIVERY_CLIENT_SECRET, SANDBOX_DEMO_SERVER_TOKEN } from '../../../src/sandbox/clients.js';
import type { RideStatusChange } from '../../../src/sandbox/rider/index.js';
import { sandboxOnFreePort } from '../../helpers/cli.js';
import { api, getToken } from '../../helpers/sandbox.js';
import { userToken } from '../../helpers/rider.js';
import { waitFor } from '../../helpers/wait.js';

// `sandbox` runs rides at wall-clock speed (a ride stays current for minutes); `fast` runs
// them 20000 times faster, for the tests that follow a ride to its end.
let sandbox: Sandbox;
let fast: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  fast = await sandboxOnFreePort({ timeScale: 20_000 });
  token = await userToken(sandbox.url, 'profile request');
});
afterAll(async () => {
  await sandbox.close();
  await fast.close();
});

const server = { authorization: `Token ${SANDBOX_DEMO_SERVER_TOKEN}` };
const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
const price = (start: [number, number], end: [number, number], extra: Record<string, number> = {}) =>
  api(
    sandbox.url,
    token,
    'GET',
    `/v1.2/estimates/price?${q({ start_latitude: start[0], start_longitude: start[1], end_latitude: end[0], end_longitude: end[1], ...extra })}`,
  );

describe('rider sandbox: products and estimates', () => {
  it("lists a city's own products, localized, and none outside the service areas", async () => {
    const sf = await api(sandbox.url, undefined, 'GET', '/v1.2/products?latitude=37.7749&longitude=-122.4194', undefined, server);
    expect(sf.status).toBe(200);
    expect(sf.body.products.map((p: any) => p.product_group)).toEqual(['rideshare', 'platformx', 'platformxl', 'platformblack', 'suv', 'taxi']);
    const taxi = sf.body.products.find((p: any) => p.product_group === 'taxi');
    const pool = sf.body.products.find((p: any) => p.product_group === 'rideshare');
    expect(taxi.price_details).toBeNull();
    expect(pool).toMatchObject({ shared: true, upfront_fare_enabled: true, price_details: null });
    expect(sf.body.products.find((p: any) => p.product_group === 'platformx').price_details).toMatchObject({
      distance_unit: 'mile',
      currency_code: 'USD',
      service_fees: [{ name: 'Booking fee', fee: 2.55 }],
    });

    const paris = await api(sandbox.url, token, 'GET', '/v1.2/products?latitude=48.8566&longitude=2.3522', undefined, { 'accept-language': 'fr-FR,fr;q=0.9' });
    expect(paris.body.products.map((p: any) => p.display_name)).toEqual(['Économique', 'Économique XL', 'Berline', 'Taxi']);
    expect(paris.body.products[0].price_details).toMatchObject({ distance_unit: 'km', currency_code: 'EUR' });
    const ids = new Set(sf.body.products.map((p: any) => p.product_id));
    expect(paris.body.products.some((p: any) => ids.has(p.product_id))).toBe(false);

    const one = await api(sandbox.url, token, 'GET', `/v1.2/products/${paris.body.products[0].product_id}`);
    expect(one.body.display_name).toBe('Economy');
    expect((await api(sandbox.url, token, 'GET', '/v1.2/products?latitude=0&longitude=0')).body.products).toEqual([]);
    expect((await api(sandbox.url, token, 'GET', '/v1.2/products/nope')).body).toMatchObject({ code: 'not_found' });
  });

  it('prices trips sanely: range, single number, Metered; longer never cheaper; surge multiplies', async () => {
    const start: [number, number] = [37.7749, -122.4194];
    const near = await price(start, [37.7599, -122.4148]);
    const far = await price(start, [37.6213, -122.379]);
    expect(near.status).toBe(200);
    const byGroup = (body: any, i: number) => body.prices[i];
    const x = byGroup(near.body, 1);
    expect(x.estimate).toMatch(/^\$\d+-\d+$/);
    expect(byGroup(near.body, 0).estimate).toMatch(/^\$\d+$/);
    expect(byGroup(near.body, 5)).toMatchObject({ estimate: 'Metered', currency_code: null, low_estimate: null, high_estimate: null });
    for (let i = 0; i < 5; i++) {
      expect(far.body.prices[i].low_estimate).toBeGreaterThanOrEqual(near.body.prices[i].low_estimate);
      expect(far.body.prices[i].high_estimate).toBeGreaterThanOrEqual(near.body.prices[i].high_estimate);
      expect(far.body.prices[i].duration).toBeGreaterThan(near.body.prices[i].duration);
    }
    // A ladder of ever longer trips never gets cheaper.
    let last = 0;
    for (let k = 1; k <= 10; k++) {
      const res = await price(start, [start[0] - 0.01 * k, start[1]]);
      const low = res.body.prices[1].low_estimate;
      expect(low).toBeGreaterThanOrEqual(last);
      last = low;
    }
    // SoMa surges at 1.8: the estimate includes it.
    const surged = await price([37.7842, -122.4016], [37.7599, -122.4148]);
    const plain = await price([37.7749, -122.4194], [37.7599, -122.4148]);
    const sx = surged.body.prices[1];
    expect(sx.surge_multiplier).toBe(1.8);
    expect(plain.body.prices[1].surge_multiplier).toBe(1);
    // Same trip, surge set by the control route: low estimate x multiplier (within rounding).
    const productId = surged.body.prices[3].product_id; // Black: not used by the tests below
    const before = (await price([37.77, -122.45], [37.75, -122.45])).body.prices[3];
    expect((await api(sandbox.url, undefined, 'PUT', `/v1.2/sandbox/products/${productId}`, { surge_multiplier: 2 })).status).toBe(204);
    const after = (await price([37.77, -122.45], [37.75, -122.45])).body.prices[3];
    expect(after.surge_multiplier).toBe(2);
    expect(after.low_estimate).toBeGreaterThanOrEqual(2 * before.low_estimate);
    expect(after.low_estimate).toBeLessThanOrEqual(2 * before.low_estimate + 2);
    await api(sandbox.url, undefined, 'PUT', `/v1.2/sandbox/products/${productId}`, { surge_multiplier: 1 });
  });

  it('answers 422 validation_failed with each field, and distance_exceeded', async () => {
    const res = await api(sandbox.url, token, 'GET', '/v1.2/estimates/price?start_latitude=abc&end_longitude=1&seat_count=3');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.fields).toMatchObject({
      start_latitude: [expect.any(String)],
      start_longitude: ['Required'],
      end_latitude: ['Required'],
      seat_count: ['must be at most 2'],
    });
    const far = await price([37.7749, -122.4194], [34.0522, -118.2437]);
    expect(far).toMatchObject({ status: 422, body: { code: 'distance_exceeded' } });
    const time = await api(sandbox.url, token, 'GET', '/v1.2/estimates/time');
    expect(time.body.fields).toEqual({ start_latitude: ['Required'], start_longitude: ['Required'] });
  });

  it('time estimates leave out products without drivers near', async () => {
    const res = await api(sandbox.url, token, 'GET', '/v1.2/estimates/time?start_latitude=37.7749&start_longitude=-122.4194');
    expect(res.status).toBe(200);
    expect(res.body.times.length).toBe(5); // the Black SUV has no driver near
    for (const t of res.body.times) expect(t.estimate).toBeGreaterThanOrEqual(120);
    const only = await api(
      sandbox.url,
      token,
      'GET',
      `/v1.2/estimates/time?start_latitude=37.7749&start_longitude=-122.4194&product_id=${res.body.times[1].product_id}`,
    );
    expect(only.body.times).toHaveLength(1);
  });

  it('takes a server token on products and price estimates only', async () => {
    expect(
      (
        await api(
          sandbox.url,
          undefined,
          'GET',
          '/v1.2/estimates/price?start_latitude=37.7749&start_longitude=-122.4194&end_latitude=37.76&end_longitude=-122.41',
          undefined,
          server,
        )
      ).status,
    ).toBe(200);
    for (const [method, path] of [
      ['GET', '/v1.2/estimates/time?start_latitude=37.7749&start_longitude=-122.4194'],
      ['POST', '/v1.2/requests'],
      ['GET', '/v1.2/me'],
      ['GET', '/v1.2/history'],
    ] as const) {
      const res = await api(sandbox.url, undefined, method, path, method === 'POST' ? {} : undefined, server);
      if (path === '/v1.2/me') expect(res.status).toBe(401);
      else
        expect(res).toMatchObject({
          status: 401,
          body: { code: 'unauthorized', message: expect.stringMatching(/server token is accepted only on products and price estimates/) },
        });
    }
    // A client-credentials token acts for no user; a user token without `request` cannot request.
    const cc = await getToken(sandbox.url);
    expect((await api(sandbox.url, cc, 'GET', '/v1.2/products?latitude=37.7&longitude=-122.4')).body.code).toBe('insufficient_scope');
    const profileOnly = await userToken(sandbox.url, 'profile');
    expect(await api(sandbox.url, profileOnly, 'POST', '/v1.2/requests', {})).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } });
  });
});

describe('rider sandbox: requests', () => {
  const start = { start_latitude: 37.7749, start_longitude: -122.4194 };
  const end = { end_latitude: 37.7599, end_longitude: -122.4148 };

  async function estimate(t: string, productId: string, body: Record<string, unknown> = {}) {
    return api(sandbox.url, t, 'POST', '/v1.2/requests/estimate', { product_id: productId, ...start, ...end, ...body });
  }

  async function products(lat = 37.7749, lng = -122.4194): Promise<Record<string, string>> {
    const res = await api(sandbox.url, token, 'GET', `/v1.2/products?latitude=${lat}&longitude=${lng}`);
    return Object.fromEntries(res.body.products.map((p: any) => [p.product_group, p.product_id]));
  }

  it('estimates with a fare and requests; one trip at a time; no receipt before the end', async () => {
    const t = await userToken(sandbox.url, 'profile request request_receipt');
    const ids = await products();
    const est = await estimate(t, ids.platformx!);
    expect(est.status).toBe(200);
    expect(est.body.price).toMatchObject({
      surge_multiplier: 1,
      surge_confirmation_id: null,
      fare_breakdown: [],
      currency_code: 'USD',
      display: expect.stringMatching(/^\$\d+\.\d\d$/),
    });
    expect(est.body.price.fare_id).toBeTruthy();
    expect(est.body.price.expires_at).toBeGreaterThan(Date.now() / 1000);
    expect(est.body.trip).toMatchObject({ distance_unit: 'mile' });
    expect(est.body.pickup_estimate).toBeGreaterThan(0);
    const deprecated = await api(sandbox.url, t, 'POST', '/v1/requests/estimate', { product_id: ids.platformx, ...start });
    expect(deprecated.headers.get('deprecation')).toBe('true');
    expect(deprecated.body).toMatchObject({ trip: null, price: { minimum: expect.any(Number) } });
    expect(deprecated.body.price.fare_id).toBeUndefined();

    const created = await api(sandbox.url, t, 'POST', '/v1.2/requests', { product_id: ids.platformx, fare_id: est.body.price.fare_id, ...start, ...end });
    expect(created).toMatchObject({ status: 202, body: { status: 'processing', product_id: ids.platformx, surge_multiplier: 1 } });
    const id = created.body.request_id;
    expect(
      (await api(sandbox.url, t, 'POST', '/v1.2/requests', { product_id: ids.platformx, fare_id: est.body.price.fare_id, ...start, ...end })).body.code,
    ).toBe('current_trip_exists');
    expect((await estimate(t, ids.platformx!)).body.code).toBe('current_trip_exists');
    expect((await api(sandbox.url, t, 'GET', '/v1.2/requests/current')).body.request_id).toBe(id);
    expect((await api(sandbox.url, t, 'GET', `/v1.2/requests/${id}/receipts`)).body.code).toBe('receipt_not_ready');
    expect((await api(sandbox.url, t, 'DELETE', `/v1.2/requests/${id}`)).status).toBe(204);
    expect((await api(sandbox.url, t, 'GET', '/v1.2/requests/current')).body.code).toBe('no_current_trip');
  });

  it('replays a ride request retried with the same Idempotency-Key instead of creating a second one', async () => {
    const t = await userToken(sandbox.url, 'profile request');
    const ids = await products();
    const est = await estimate(t, ids.platformx!);
    const body = { product_id: ids.platformx, fare_id: est.body.price.fare_id, ...start, ...end };
    const first = await api(sandbox.url, t, 'POST', '/v1.2/requests', body, { 'idempotency-key': 'ride-retry-1' });
    const again = await api(sandbox.url, t, 'POST', '/v1.2/requests', body, { 'idempotency-key': 'ride-retry-1' });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.request_id).toBe(first.body.request_id);
    const other = await api(sandbox.url, t, 'POST', '/v1.2/requests', body, { 'idempotency-key': 'ride-retry-2' });
    expect(other.body.code).toBe('current_trip_exists');
    expect((await api(sandbox.url, t, 'DELETE', `/v1.2/requests/${first.body.request_id}`)).status).toBe(204);
  });

  it('moves a ride along the simulated clock to completed, reporting each change, with a receipt', async () => {
    const t = await userToken(fast.url, 'profile request request_receipt');
    const res = await api(fast.url, t, 'GET', '/v1.2/products?latitude=37.7749&longitude=-122.4194');
    const x = res.body.products[1].product_id;
    const changes: RideStatusChange[] = [];
    const off = fast.rider.onRideStatusChange((c) => changes.push(c));
    const est = await api(fast.url, t, 'POST', '/v1.2/requests/estimate', { product_id: x, ...start, ...end });
    const created = await api(fast.url, t, 'POST', '/v1.2/requests', {
      product_id: x,
      fare_id: est.body.price.fare_id,
      ...start,
      ...end,
      expense_code: 'TRIP42',
    });
    const id = created.body.request_id;
    // At 20000x a ~10 minute ride takes well under a second of wall time.
    const ofRide = () => changes.filter((c) => c.ride.request_id === id).map((c) => c.status);
    await waitFor(() => ofRide().includes('completed'), { what: `ride ${id} to complete`, state: ofRide });
    const ride = (await api(fast.url, t, 'GET', `/v1.2/requests/${id}`)).body;
    expect(ride.status).toBe('completed');
    const statuses = changes.filter((c) => c.ride.request_id === id).map((c) => c.status);
    expect(statuses).toEqual(['processing', 'accepted', 'arriving', 'in_progress', 'completed']);
    off();
    const receipt = await api(fast.url, t, 'GET', `/v1.2/requests/${id}/receipts`);
    expect(receipt.body).toMatchObject({ request_id: id, currency_code: 'USD', expense_code: 'TRIP42', surge_charge: null });
    // The official Python rides SDK asks at the singular path: the same answer.
    expect(await api(fast.url, t, 'GET', `/v1.2/requests/${id}/receipt`)).toMatchObject({ status: 200, body: receipt.body });
    const history = await api(fast.url, t, 'GET', '/v1.2/history?limit=1&offset=0');
    expect(history.body).toMatchObject({ limit: 1, offset: 0, history: [{ request_id: id, status: 'completed' }] });
    expect((await api(fast.url, t, 'GET', '/v1.2/history?limit=51')).body.fields.limit).toBeDefined();
  });

  it('asks for a surge confirmation (409), accepts it on retry, refuses an expired one', async () => {
    const t = await userToken(sandbox.url, 'profile request');
    const ids = await products();
    const soma = { start_latitude: 37.7842, start_longitude: -122.4016 };
    const est = await api(sandbox.url, t, 'POST', '/v1.2/requests/estimate', { product_id: ids.platformx, ...soma, ...end });
    expect(est.body.price).toMatchObject({
      surge_multiplier: 1.8,
      surge_confirmation_id: expect.any(String),
      surge_confirmation_href: expect.stringContaining('/v1.2/surge-confirmations/'),
    });
    const body = { product_id: ids.platformx, fare_id: est.body.price.fare_id, ...soma, ...end };
    const surge = await api(sandbox.url, t, 'POST', '/v1.2/requests', body);
    expect(surge.status).toBe(409);
    expect(surge.body).toMatchObject({
      meta: { surge_confirmation: { multiplier: 1.8, surge_confirmation_id: expect.any(String), href: expect.any(String), expires_at: expect.any(Number) } },
      errors: [{ status: 409, code: 'surge' }],
    });
    const confirmation = surge.body.meta.surge_confirmation.surge_confirmation_id;
    sandbox.rider.expireFares();
    const expired = await api(sandbox.url, t, 'POST', '/v1.2/requests', { ...body, surge_confirmation_id: confirmation });
    expect(expired).toMatchObject({ status: 409, body: { code: 'fare_expired' } });
    const again = await api(sandbox.url, t, 'POST', '/v1.2/requests/estimate', { product_id: ids.platformx, ...soma, ...end });
    const retry = await api(sandbox.url, t, 'POST', '/v1.2/requests', {
      ...body,
      fare_id: again.body.price.fare_id,
      surge_confirmation_id: again.body.price.surge_confirmation_id,
    });
    expect(retry).toMatchObject({ status: 202, body: { surge_multiplier: 1.8 } });
    expect((await api(sandbox.url, t, 'DELETE', `/v1.2/requests/${retry.body.request_id}`)).status).toBe(204);
    expect((await api(sandbox.url, t, 'GET', `/v1.2/requests/${retry.body.request_id}`)).body.status).toBe('rider_canceled');
  });

  it('answers the errors of spec 7.2 it can produce', async () => {
    const t = await userToken(sandbox.url, 'profile request');
    const ids = await products();
    const ny = await products(40.7128, -74.006);
    const post = (body: Record<string, unknown>, tok = t) => api(sandbox.url, tok, 'POST', '/v1.2/requests', body);
    const code = async (p: Promise<{ status: number; body: any }>) => {
      const r = await p;
      return `${r.status} ${r.body.code}`;
    };
    expect(await code(post({ product_id: ids.platformx, fare_id: 'nope', ...start, ...end }))).toBe('422 invalid_fare_id');
    expect(await code(post({ product_id: 'nope', fare_id: 'x', ...start, ...end }))).toBe('404 no_product_found');
    expect(await code(post({ product_id: ids.platformx, fare_id: 'x', ...start, end_latitude: 37.7749, end_longitude: -122.4194 }))).toBe(
      '422 same_pickup_dropoff',
    );
    expect(await code(post({ product_id: ids.platformx, fare_id: 'x', ...start, end_latitude: 34.05, end_longitude: -118.24 }))).toBe('422 distance_exceeded');
    expect(await code(post({ product_id: ids.rideshare, fare_id: 'x', ...start }))).toBe('422 destination_required');
    expect(await code(post({ product_id: ids.platformx, fare_id: 'x', ...start, end_latitude: 38.58, end_longitude: -121.49 }))).toBe(
      '422 outside_service_area',
    );
    expect(
      await code(
        post({
          product_id: ny.rideshare,
          fare_id: 'x',
          start_latitude: 40.7128,
          start_longitude: -74.006,
          end_latitude: 40.73,
          end_longitude: -74,
          seat_count: 2,
        }),
      ),
    ).toBe('422 invalid_seat_count');
    expect(await code(post({ product_id: ids.platformx, ...start, ...end }))).toBe('422 validation_failed');
    expect(await code(post({ ...start }))).toBe('422 validation_failed');
    expect(await code(post({ product_id: ids.platformx, fare_id: 'x', ...start, ...end }, await userToken(sandbox.url, 'request', 'no-payment')))).toBe(
      '409 missing_payment_method',
    );
    expect(await code(post({ product_id: ids.platformx, fare_id: 'x', ...start, ...end }, await userToken(sandbox.url, 'request', 'forbidden')))).toBe(
      '403 forbidden',
    );
    expect(await code(estimate(t, 'nope'))).toBe('404 not_found');
    expect(await code(api(sandbox.url, t, 'POST', '/v1.2/requests/estimate', { start_latitude: 0, start_longitude: 0 }))).toBe('404 no_product_found');
  });

  it('ends in no_drivers_available when no driver is near; the control route sets a status', async () => {
    const t = await userToken(fast.url, 'profile request');
    const ids = Object.fromEntries(
      (await api(fast.url, t, 'GET', '/v1.2/products?latitude=37.7749&longitude=-122.4194')).body.products.map((p: any) => [p.product_group, p.product_id]),
    );
    expect((await api(fast.url, undefined, 'PUT', `/v1.2/sandbox/products/${ids.platformxl}`, { drivers_available: false })).status).toBe(204);
    const est = await api(fast.url, t, 'POST', '/v1.2/requests/estimate', { product_id: ids.platformxl, ...start, ...end });
    expect(est.body.pickup_estimate).toBeNull();
    const created = await api(fast.url, t, 'POST', '/v1.2/requests', { product_id: ids.platformxl, fare_id: est.body.price.fare_id, ...start, ...end });
    let status = '';
    const ended = async () => {
      status = (await api(fast.url, t, 'GET', `/v1.2/requests/${created.body.request_id}`)).body.status;
      return status === 'no_drivers_available';
    };
    await waitFor(ended, { what: 'the ride to end in no_drivers_available', state: () => status });
    await api(fast.url, undefined, 'PUT', `/v1.2/sandbox/products/${ids.platformxl}`, { drivers_available: true });

    const est2 = await api(fast.url, t, 'POST', '/v1.2/requests/estimate', { product_id: ids.platformxl, ...start, ...end });
    const ride = await api(fast.url, t, 'POST', '/v1.2/requests', { product_id: ids.platformxl, fare_id: est2.body.price.fare_id, ...start, ...end });
    expect((await api(fast.url, undefined, 'PUT', `/v1.2/sandbox/requests/${ride.body.request_id}`, { status: 'driver_canceled' })).status).toBe(204);
    expect((await api(fast.url, t, 'GET', `/v1.2/requests/${ride.body.request_id}`)).body.status).toBe('driver_canceled');
    expect((await api(fast.url, undefined, 'PUT', `/v1.2/sandbox/requests/${ride.body.request_id}`, { status: 'flying' })).body.code).toBe('validation_failed');
  });

  it('applies a promotion code with PATCH /v1.2/me', async () => {
    expect(await api(sandbox.url, token, 'PATCH', '/v1.2/me', { applied_promotion_codes: 'freeride' })).toMatchObject({
      status: 200,
      body: { promotion_code: 'FREERIDE', description: expect.any(String) },
    });
    expect(await api(sandbox.url, token, 'PATCH', '/v1.2/me', { applied_promotion_codes: 'NOPE' })).toMatchObject({
      status: 422,
      body: { code: 'validation_failed', fields: { applied_promotion_codes: [expect.stringMatching(/unknown/)] } },
    });
  });
});

describe('delivery quotes sandbox', () => {
  it('quotes with an eats.deliveries client-credentials token; customer_id must be a UUID', async () => {
    const res = await fetch(`${sandbox.url}/oauth/v2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: SANDBOX_DELIVERY_CLIENT_ID,
        client_secret: SANDBOX_DELIVERY_CLIENT_SECRET,
        scope: 'eats.deliveries',
      }),
    });
    const cc = ((await res.json()) as { access_token: string }).access_token;
    const path = '/v1/customers/7b6f1b36-3a0e-4d5b-9a3e-2f1c9d3e8a11/delivery_quotes';
    const body = { pickup_address: '1 Market St, San Francisco', dropoff_address: '500 Castro St, San Francisco' };
    const quote = await api(sandbox.url, cc, 'POST', path, body);
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ kind: 'delivery_quote', id: expect.stringMatching(/^dqt_/), fee: expect.any(Number), currency: 'usd' });
    expect(Date.parse(quote.body.expires)).toBeGreaterThan(Date.parse(quote.body.created));
    expect((await api(sandbox.url, cc, 'POST', '/v1/customers/acme/delivery_quotes', body)).body.code).toBe('invalid_params');
    expect((await api(sandbox.url, cc, 'POST', path, { pickup_address: '' })).body.fields).toMatchObject({
      pickup_address: ['Required'],
      dropoff_address: ['Required'],
    });
    expect((await api(sandbox.url, await getToken(sandbox.url), 'POST', path, body)).status).toBe(403);
  });
});

describe('rider sandbox: fault injection', () => {
  it('answers rider calls with injected 500s or drops and 429s; sandbox control routes are never faulted', async () => {
    const flaky = await sandboxOnFreePort({ failRate: 1 });
    try {
      const t = await userToken(flaky.url, 'profile request');
      const failed = await api(flaky.url, t, 'GET', '/v1.2/products?latitude=37.7749&longitude=-122.4194').catch(() => ({ status: 0 }));
      expect([500, 0]).toContain(failed.status);
      flaky.setFaults({ failRate: 0, throttleRate: 1 });
      const throttled = await api(flaky.url, t, 'GET', '/v1.2/products?latitude=37.7749&longitude=-122.4194');
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toBe('1');
      // The control routes of the sandbox are never faulted.
      flaky.setFaults({ failRate: 1, throttleRate: 1 });
      const control = await fetch(`${flaky.url}/v1.2/sandbox/products/unknown`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect([429, 500]).not.toContain(control.status);
    } finally {
      await flaky.close();
    }
  });
});

describe('rider sandbox: --state', () => {
  it('keeps rides, product overrides and applied promotions across a restart', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const statePath = join(mkdtempSync(join(tmpdir(), 'rider-state-')), 'state.json');
    const trip = { start_latitude: 37.7749, start_longitude: -122.4194, end_latitude: 37.7599, end_longitude: -122.4148 };
    const first = await sandboxOnFreePort({ statePath });
    const t = await userToken(first.url, 'profile request');
    const listed = await api(first.url, t, 'GET', '/v1.2/products?latitude=37.7749&longitude=-122.4194');
    const x = (listed.body.products as Array<{ product_id: string; product_group: string }>).find((p) => p.product_group === 'platformx')!;
    const est = await api(first.url, t, 'POST', '/v1.2/requests/estimate', { product_id: x.product_id, ...trip });
    const ride = await api(first.url, t, 'POST', '/v1.2/requests', { product_id: x.product_id, fare_id: est.body.price.fare_id, ...trip });
    expect(ride.status).toBe(202);
    const put = await fetch(`${first.url}/v1.2/sandbox/products/${x.product_id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ surge_multiplier: 2.5 }),
    });
    expect(put.status).toBe(204);
    expect((await api(first.url, t, 'PATCH', '/v1.2/me', { applied_promotion_codes: 'freeride' })).status).toBe(200);
    await first.close();

    const second = await sandboxOnFreePort({ statePath });
    try {
      const again = await api(second.url, t, 'GET', `/v1.2/requests/${ride.body.request_id}`);
      expect(again).toMatchObject({ status: 200, body: { request_id: ride.body.request_id, product_id: x.product_id } });
      expect((await api(second.url, t, 'GET', '/v1.2/requests/current')).body.request_id).toBe(ride.body.request_id);
      const prices = await api(
        second.url,
        t,
        'GET',
        '/v1.2/estimates/price?start_latitude=37.7749&start_longitude=-122.4194&end_latitude=37.7599&end_longitude=-122.4148',
      );
      const surged = (prices.body.prices as Array<{ product_id: string; surge_multiplier: number }>).find((p) => p.product_id === x.product_id)!;
      expect(surged.surge_multiplier).toBe(2.5);
      // The applied promotion was saved and kept by the restart.
      const state = JSON.parse((await import('node:fs')).readFileSync(statePath, 'utf8')) as { rider: { promotions: Array<[string, unknown[]]> } };
      expect(state.rider.promotions[0]![1]).toEqual([{ promotion_code: 'FREERIDE', description: expect.any(String) }]);
    } finally {
      await second.close();
    }
  });
});
