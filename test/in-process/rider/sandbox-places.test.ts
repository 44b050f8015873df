// The rest of the rider API v1.2 (spec 4.4) over raw HTTP: places (GET/PUT), start_place_id and
// end_place_id on estimates and requests, the ride map, request updates (PATCH), product by id;
// each error in the shape of spec 7.2.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { api } from '../../helpers/sandbox.js';
import { userToken } from '../../helpers/rider.js';

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  token = await userToken(sandbox.url, 'profile request');
});
afterAll(() => sandbox.close());

const HOME = '685 Market St, San Francisco, CA';
const WORK = '1 Ferry Building, San Francisco';
const economyAt = async (lat: number, lng: number) =>
  (await api(sandbox.url, token, 'GET', `/v1.2/products?latitude=${lat}&longitude=${lng}`)).body.products.find((p: any) => p.display_name === 'Economy');

/** Cancels the user's current ride, if any, so the next request is not current_trip_exists. */
async function cancelCurrent(): Promise<void> {
  const current = await api(sandbox.url, token, 'GET', '/v1.2/requests/current');
  if (current.status === 200) await api(sandbox.url, token, 'DELETE', `/v1.2/requests/${current.body.request_id}`);
}

describe('places (GET/PUT /v1.2/places/{place_id})', () => {
  it('404 before a place is saved; PUT {address} answers {address}; GET gives it back', async () => {
    const unset = await api(sandbox.url, token, 'GET', '/v1.2/places/work');
    expect(unset.status).toBe(404);
    expect(unset.body).toMatchObject({ code: 'not_found', message: expect.stringMatching(/work/) });
    const put = await api(sandbox.url, token, 'PUT', '/v1.2/places/home', { address: HOME });
    expect(put).toMatchObject({ status: 200, body: { address: HOME } });
    expect(await api(sandbox.url, token, 'GET', '/v1.2/places/home')).toMatchObject({ status: 200, body: { address: HOME } });
  });

  it('keeps saved places in the --state file across a restart', async () => {
    const statePath = join(tempDir(), 'state.json');
    const first = await startSandbox({ port: 0, statePath });
    const saved = await api(first.url, await userToken(first.url, 'profile'), 'PUT', '/v1.2/places/work', { address: WORK });
    expect(saved.status).toBe(200);
    await first.close();
    const second = await startSandbox({ port: 0, statePath });
    try {
      expect(await api(second.url, await userToken(second.url, 'profile'), 'GET', '/v1.2/places/work')).toMatchObject({ status: 200, body: { address: WORK } });
    } finally {
      await second.close();
    }
  });

  it('only home and work; an address must be given and be in a served city (422 validation_failed with fields)', async () => {
    const gym = await api(sandbox.url, token, 'PUT', '/v1.2/places/gym', { address: HOME });
    expect(gym.status).toBe(404);
    expect(gym.body).toMatchObject({ code: 'not_found', message: expect.stringMatching(/home and work/) });
    const empty = await api(sandbox.url, token, 'PUT', '/v1.2/places/work', {});
    expect(empty).toMatchObject({ status: 422, body: { code: 'validation_failed', fields: { address: ['Required'] } } });
    const nowhere = await api(sandbox.url, token, 'PUT', '/v1.2/places/work', { address: '1 Main St, Springfield' });
    expect(nowhere).toMatchObject({ status: 422, body: { code: 'validation_failed', fields: { address: [expect.stringMatching(/San Francisco/)] } } });
    expect(await api(sandbox.url, undefined, 'GET', '/v1.2/places/home')).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
  });
});

describe('start_place_id and end_place_id', () => {
  it('422 naming the field when the place is not saved, or is not home or work; the start is still required', async () => {
    const other = await userToken(sandbox.url, 'profile request', 'no-payment');
    const economy = await economyAt(37.7749, -122.4194);
    const unset = await api(sandbox.url, other, 'POST', '/v1.2/requests/estimate', { product_id: economy.product_id, start_place_id: 'home' });
    expect(unset).toMatchObject({
      status: 422,
      body: { code: 'validation_failed', message: expect.any(String), fields: { start_place_id: [expect.stringMatching(/no home place is saved/)] } },
    });
    // The demo user has a home but no work place yet.
    const end = await api(sandbox.url, token, 'POST', '/v1.2/requests', {
      product_id: economy.product_id,
      fare_id: 'x',
      start_latitude: 37.7749,
      start_longitude: -122.4194,
      end_place_id: 'work',
    });
    expect(end).toMatchObject({ status: 422, body: { code: 'validation_failed', fields: { end_place_id: [expect.stringMatching(/no work place/)] } } });
    const gym = await api(sandbox.url, token, 'POST', '/v1.2/requests/estimate', { start_place_id: 'gym' });
    expect(gym).toMatchObject({ status: 422, body: { code: 'validation_failed', fields: { start_place_id: ['must be home or work'] } } });
    const none = await api(sandbox.url, token, 'POST', '/v1.2/requests/estimate', {});
    expect(none).toMatchObject({ status: 422, body: { fields: { start_latitude: ['Required'], start_longitude: ['Required'] } } });
  });

  it('estimates and requests a ride between saved places, resolved to their coordinates', async () => {
    await api(sandbox.url, token, 'PUT', '/v1.2/places/home', { address: HOME });
    await api(sandbox.url, token, 'PUT', '/v1.2/places/work', { address: WORK });
    const economy = await economyAt(37.7749, -122.4194);
    const estimate = await api(sandbox.url, token, 'POST', '/v1.2/requests/estimate', {
      product_id: economy.product_id,
      start_place_id: 'home',
      end_place_id: 'work',
    });
    expect(estimate.status).toBe(200);
    expect(estimate.body.trip.distance_estimate).toBeGreaterThan(0);
    expect(estimate.body.price.fare_id).toBeTruthy();
    const ride = await api(sandbox.url, token, 'POST', '/v1.2/requests', {
      product_id: economy.product_id,
      fare_id: estimate.body.price.fare_id,
      start_place_id: 'home',
      end_place_id: 'work',
    });
    expect(ride.status).toBe(202);
    expect(ride.body.status).toBe('processing');
    await cancelCurrent();
  });
});

describe('a ride: map and update', () => {
  it('gives the map link of a ride, which opens a page about it; 404 not_found for an unknown ride', async () => {
    const economy = await economyAt(37.7749, -122.4194);
    // The same pickup to work, estimated first (no estimate while on a trip): what the updated ride must measure.
    const toWorkEstimate = await api(sandbox.url, token, 'POST', '/v1.2/requests/estimate', {
      product_id: economy.product_id,
      start_latitude: 37.7749,
      start_longitude: -122.4194,
      end_place_id: 'work',
    });
    const estimate = await api(sandbox.url, token, 'POST', '/v1.2/requests/estimate', {
      product_id: economy.product_id,
      start_latitude: 37.7749,
      start_longitude: -122.4194,
      end_latitude: 37.7599,
      end_longitude: -122.4148,
    });
    const ride = await api(sandbox.url, token, 'POST', '/v1.2/requests', {
      product_id: economy.product_id,
      fare_id: estimate.body.price.fare_id,
      start_latitude: 37.7749,
      start_longitude: -122.4194,
      end_latitude: 37.7599,
      end_longitude: -122.4148,
    });
    const id = ride.body.request_id as string;
    const map = await api(sandbox.url, token, 'GET', `/v1.2/requests/${id}/map`);
    expect(map).toMatchObject({ status: 200, body: { request_id: id, href: expect.stringMatching(/^http:\/\//) } });
    const page = await fetch(map.body.href);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(id);
    expect(await api(sandbox.url, token, 'GET', '/v1.2/requests/nope/map')).toMatchObject({ status: 404, body: { code: 'not_found' } });

    // A new destination: 204, and the trip follows it (the receipt's distance once completed).
    const update = await api(sandbox.url, token, 'PATCH', `/v1.2/requests/${id}`, { end_latitude: 37.6213, end_longitude: -122.379, end_address: 'SFO' });
    expect(update.status).toBe(204);
    expect(update.body).toBeUndefined();
    const toWork = await api(sandbox.url, token, 'PATCH', `/v1.2/requests/${id}`, { end_place_id: 'work' });
    expect(toWork.status).toBe(204);
    const half = await api(sandbox.url, token, 'PATCH', `/v1.2/requests/${id}`, { end_latitude: 37.6213 });
    expect(half).toMatchObject({ status: 422, body: { code: 'validation_failed', fields: { end_longitude: ['Required'] } } });
    const same = await api(sandbox.url, token, 'PATCH', `/v1.2/requests/${id}`, { end_latitude: 37.7749, end_longitude: -122.4194 });
    expect(same).toMatchObject({ status: 422, body: { code: 'same_pickup_dropoff' } });
    const far = await api(sandbox.url, token, 'PATCH', `/v1.2/requests/${id}`, { end_latitude: 40.7128, end_longitude: -74.006 });
    expect(far).toMatchObject({ status: 422, body: { code: 'distance_exceeded' } });
    await api(sandbox.url, undefined, 'PUT', `/v1.2/sandbox/requests/${id}`, { status: 'completed' });
    const receipt = await api(sandbox.url, token, 'GET', `/v1.2/requests/${id}/receipts`);
    expect(receipt.body.distance).toBe(toWorkEstimate.body.trip.distance_estimate);
    const ended = await api(sandbox.url, token, 'PATCH', `/v1.2/requests/${id}`, { end_place_id: 'home' });
    expect(ended).toMatchObject({ status: 409, body: { code: 'ride_already_ended' } });
    expect(await api(sandbox.url, token, 'PATCH', '/v1.2/requests/nope', { end_place_id: 'home' })).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });
});

describe('product by id (GET /v1.2/products/{product_id})', () => {
  it('answers the product, and 404 not_found (spec 7.2 shape) for an unknown id', async () => {
    const economy = await economyAt(48.8566, 2.3522);
    expect(await api(sandbox.url, token, 'GET', `/v1.2/products/${economy.product_id}`)).toMatchObject({ status: 200, body: economy });
    const unknown = await api(sandbox.url, token, 'GET', '/v1.2/products/no-such-product');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'not_found', message: expect.any(String) });
  });
});
