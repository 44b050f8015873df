// The official Python rides SDK's calls, as it makes them (uber_rides/client.py and
// utils/request.py, version 0.4.1): its paths, a GET's arguments as query parameters with the
// unset ones left out, a write's arguments as a JSON body with the unset ones as null, and its
// headers. Every call of a ride's whole flow gets the answer the SDK expects. It asks for a
// receipt at /receipt, where spec 4.4 says /receipts: the sandbox answers both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { userToken } from '../../helpers/rider.js';

let sandbox: Sandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  token = await userToken(sandbox.url, 'profile request request_receipt');
});
afterAll(() => sandbox.close());

const BODY_METHODS = ['POST', 'PUT', 'PATCH'];

/** One call as the SDK's Request.execute() sends it. */
async function sdk(method: string, path: string, args: Record<string, unknown> = {}): Promise<{ status: number; json: any }> {
  const url = new URL(`/${path}`, sandbox.url);
  const body = BODY_METHODS.includes(method);
  // requests drops the None values of params; json.dumps keeps them as null.
  if (!body) for (const [key, value] of Object.entries(args)) if (value !== null && value !== undefined) url.searchParams.set(key, String(value));
  const response = await fetch(url, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      'X-Uber-User-Agent': 'Python Rides SDK v0.4.1',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(args) : undefined,
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

const start = { start_latitude: 37.7749, start_longitude: -122.4194 };
const end = { end_latitude: 37.7599, end_longitude: -122.4148 };

describe('the official Python rides SDK', () => {
  it('every call of a ride from products to receipt gets the answer the SDK expects', async () => {
    const calls: Array<[string, number, number]> = [];
    const call = async (name: string, expected: number, method: string, path: string, args?: Record<string, unknown>) => {
      const answer = await sdk(method, path, args);
      calls.push([name, answer.status, expected]);
      return answer;
    };

    const products = await call('get_products', 200, 'GET', 'v1.2/products', { latitude: start.start_latitude, longitude: start.start_longitude });
    const productId = (products.json.products as Array<{ product_id: string; product_group: string }>).find((p) => p.product_group === 'platformx')!.product_id;
    await call('get_product', 200, 'GET', `v1.2/products/${productId}`);
    await call('get_price_estimates', 200, 'GET', 'v1.2/estimates/price', { ...start, ...end, seat_count: null });
    await call('get_pickup_time_estimates', 200, 'GET', 'v1.2/estimates/time', { ...start, product_id: productId });
    await call('get_user_profile', 200, 'GET', 'v1.2/me');
    await call('get_user_activity', 200, 'GET', 'v1.2/history', { offset: null, limit: null });
    await call('set_home_address', 200, 'PUT', 'v1.2/places/home', { address: '685 Market St, San Francisco, CA 94103' });
    await call('get_home_address', 200, 'GET', 'v1.2/places/home');
    const estimate = await call('estimate_ride', 200, 'POST', 'v1.2/requests/estimate', {
      product_id: productId,
      ...start,
      start_place_id: null,
      ...end,
      end_place_id: null,
      seat_count: null,
    });
    const ride = await call('request_ride', 202, 'POST', 'v1.2/requests', {
      product_id: productId,
      ...start,
      start_place_id: null,
      start_address: null,
      start_nickname: null,
      ...end,
      end_place_id: null,
      end_address: null,
      end_nickname: null,
      surge_confirmation_id: null,
      payment_method_id: null,
      seat_count: null,
      fare_id: estimate.json.price.fare_id,
    });
    const id = ride.json.request_id as string;
    await call('get_ride_details', 200, 'GET', `v1.2/requests/${id}`);
    await call('get_current_ride_details', 200, 'GET', 'v1.2/requests/current');
    await call('update_ride', 204, 'PATCH', `v1.2/requests/${id}`, { end_latitude: 37.7849, end_longitude: -122.4094 });
    await call('update_sandbox_ride', 204, 'PUT', `v1.2/sandbox/requests/${id}`, { status: 'accepted' });
    await call('get_ride_map', 200, 'GET', `v1.2/requests/${id}/map`);
    await call('update_sandbox_ride', 204, 'PUT', `v1.2/sandbox/requests/${id}`, { status: 'completed' });
    const receipt = await call('get_ride_receipt', 200, 'GET', `v1.2/requests/${id}/receipt`);

    expect(calls.filter(([, status, expected]) => status !== expected)).toEqual([]);
    expect(calls).toHaveLength(17);
    expect(receipt.json).toMatchObject({ request_id: id, currency_code: expect.any(String) });
  });
});
