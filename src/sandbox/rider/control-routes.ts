// Sandbox-only control routes (not in the real API): drive a ride's status, set a
// product's surge and driver availability. No token needed: the sandbox is local.
import { SandboxProductBody, SandboxRequestStatusBody } from '../../schemas/rider.js';
import type { Router } from '../router.js';
import { jsonBody, parseOr422, riderError } from './errors.js';
import type { RiderState } from './state.js';
import type { Trips } from './trips.js';

export function registerControlRoutes(router: Router, state: RiderState, trips: Trips): void {
  router.add('PUT', '/v1.2/sandbox/requests/{request_id}', (req) => {
    const { status } = parseOr422(SandboxRequestStatusBody, jsonBody(req.body));
    const ride = trips.get(req.params.request_id!);
    if (!ride) throw riderError(404, 'not_found', `No ride request with id ${req.params.request_id}.`);
    trips.set(ride, status);
    return { status: 204 };
  });

  router.add('PUT', '/v1.2/sandbox/products/{product_id}', (req) => {
    const body = parseOr422(SandboxProductBody, jsonBody(req.body));
    const p = state.catalog.product(req.params.product_id!);
    if (!p) throw riderError(404, 'not_found', `No product with id ${req.params.product_id}.`);
    const current = state.overrides.get(p.product.product_id) ?? {};
    if (body.surge_multiplier !== undefined) current.surge = body.surge_multiplier;
    if (body.drivers_available !== undefined) current.drivers = body.drivers_available;
    state.overrides.set(p.product.product_id, current);
    return { status: 204 };
  });
}
