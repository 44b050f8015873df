// Ride requests (spec 4.4, 7.2): create (fare, surge confirmation, the user's standing),
// read, current, update (a new destination), map, cancel, receipt, history.
import {
  CreateRequestBody,
  UpdateRequestBody,
  FINAL_STATUSES,
  MAX_SEATS,
  HISTORY_DEFAULT_LIMIT,
  HISTORY_MAX_LIMIT,
  type HistoryItem,
  type RideMap,
} from '../../schemas/rider.js';
import type { SandboxContext } from '../context.js';
import { json, type SandboxRequest } from '../http.js';
import type { Router } from '../router.js';
import { findClient } from '../clients.js';
import { clientScope, idempotent } from '../idempotency.js';
import { userCaller } from './auth.js';
import { etaSeconds } from './catalog-routes.js';
import { jsonBodyWithoutNulls, parseOr422, riderError, surgeRequired, validationFailed } from './errors.js';
import { milesBetween, round } from './geo.js';
import { sandboxUrl, surgeConfirmation } from './estimate-routes.js';
import { RIDE_MAP_PATH } from './map-page.js';
import { tripOf, upfrontFare } from './pricing.js';
import type { RiderState } from './state.js';
import { checkTrip } from './trip-checks.js';
import { tripEnds } from './places.js';
import { receiptOf, rideResource, type Ride, type Trips } from './trips.js';

const REQUEST_SCOPES = ['request'];
const READ_SCOPES = ['request', 'all_trips', 'history'];
/** A fare matches the request when its ends are this close (about 30 m). */
const FARE_MATCH_MILES = 0.02;

export function registerRequestRoutes(router: Router, ctx: SandboxContext, state: RiderState, trips: Trips): void {
  const owned = (req: SandboxRequest, scopes: string[]): Ride => {
    const { user } = userCaller(ctx, req, scopes);
    const ride = trips.get(req.params.request_id!);
    if (!ride || ride.user_id !== user.rider_id) throw riderError(404, 'not_found', `No ride request with id ${req.params.request_id}.`);
    return ride;
  };

  router.post('/v1.2/requests', (req) => {
    const { user, token } = userCaller(ctx, req, REQUEST_SCOPES);
    const client = findClient(token.client_id)!;
    // A retry of a request whose answer was lost (same Idempotency-Key) gets the same ride,
    // not current_trip_exists: the HTTP core sends a key with every POST.
    return idempotent(ctx, req, clientScope(client.client_id), () => {
      const body = parseOr422(CreateRequestBody, jsonBodyWithoutNulls(req.body));
      if (user.forbidden) throw riderError(403, 'forbidden', 'This user is not allowed to request rides.');
      if (!user.mobile_verified) throw riderError(403, 'unverified', 'The mobile number of this user is not confirmed.');
      if (user.payment_methods.length === 0) throw riderError(409, 'missing_payment_method', 'No payment method on file.');
      if (body.payment_method_id && !user.payment_methods.some((m) => m.payment_method_id === body.payment_method_id)) {
        throw riderError(400, 'invalid_payment_method', `Payment method ${body.payment_method_id} is not one of this user's.`);
      }
      if (trips.current(user.rider_id)) throw riderError(409, 'current_trip_exists', 'You are already on a trip; finish or cancel it first.');
      const p = state.catalog.product(body.product_id);
      if (!p) throw riderError(404, 'no_product_found', `No product with id ${body.product_id}.`);
      const { start, end } = tripEnds(state, user.rider_id, body);
      const miles = checkTrip(p, { start, end, seat_count: body.seat_count });

      if (p.product.upfront_fare_enabled) {
        if (!body.fare_id) throw validationFailed({ fare_id: ['Required'] });
        const fare = state.fares.get(body.fare_id);
        const matches =
          fare &&
          fare.user_id === user.rider_id &&
          fare.product_id === p.product.product_id &&
          milesBetween(fare.start, start) < FARE_MATCH_MILES &&
          (!end || (fare.end !== undefined && milesBetween(fare.end, end) < FARE_MATCH_MILES));
        if (!fare || !matches) throw riderError(422, 'invalid_fare_id', 'The fare_id is unknown or belongs to another trip; estimate the ride again.');
        if (fare.expires_at <= ctx.now())
          throw riderError(409, 'fare_expired', 'The fare has expired; estimate the ride again and request with the new fare_id.');
      }

      let surge = state.surge(p, start);
      if (surge > 1) {
        if (!body.surge_confirmation_id) throw surgeRequired(surgeConfirmation(ctx, state, req, p, user.rider_id, surge));
        const c = state.confirmations.get(body.surge_confirmation_id);
        if (!c || c.user_id !== user.rider_id || c.product_id !== p.product.product_id) {
          throw validationFailed({ surge_confirmation_id: ['unknown surge confirmation, or one for another product'] });
        }
        if (c.expires_at <= ctx.now()) throw riderError(409, 'fare_expired', 'The surge confirmation has expired; estimate the ride again.');
        surge = c.multiplier;
      }
      const trip = tripOf(p, miles);
      const ride = trips.create({
        user_id: user.rider_id,
        client_id: token.client_id,
        product: p,
        start,
        end,
        trip,
        surge,
        fare: p.product.upfront_fare_enabled ? upfrontFare(p, trip, surge) : undefined,
        seat_count: body.seat_count ?? Math.min(MAX_SEATS, p.product.capacity),
        eta: Math.ceil(etaSeconds(p, start) / 60),
        expense_code: body.expense_code,
        expense_memo: body.expense_memo,
      });
      if (body.fare_id) state.fares.delete(body.fare_id);
      return json(202, rideResource(ride));
    });
  });

  // Before /requests/{request_id}: the router takes the first route that matches.
  router.get('/v1.2/requests/current', (req) => {
    const { user } = userCaller(ctx, req, READ_SCOPES);
    const ride = trips.current(user.rider_id);
    if (!ride) throw riderError(404, 'no_current_trip', 'You are not on a trip.');
    return json(200, rideResource(ride));
  });

  router.get('/v1.2/requests/{request_id}', (req) => {
    return json(200, rideResource(owned(req, READ_SCOPES)));
  });

  router.add('DELETE', '/v1.2/requests/{request_id}', (req) => {
    const ride = owned(req, REQUEST_SCOPES);
    if (FINAL_STATUSES.includes(ride.status)) throw riderError(409, 'ride_already_ended', `The ride has already ended (${ride.status}).`);
    trips.set(ride, 'rider_canceled');
    return { status: 204 };
  });

  // A new destination (spec 4.4 lists PATCH; its shape is the public Riders API's): 204.
  router.patch('/v1.2/requests/{request_id}', (req) => {
    const ride = owned(req, REQUEST_SCOPES);
    const body = parseOr422(UpdateRequestBody, jsonBodyWithoutNulls(req.body));
    if (FINAL_STATUSES.includes(ride.status)) throw riderError(409, 'ride_already_ended', `The ride has already ended (${ride.status}).`);
    const { end } = tripEnds(state, ride.user_id, { start_latitude: ride.start.latitude, start_longitude: ride.start.longitude, ...body });
    const p = ride.product;
    const miles = checkTrip(p, { start: ride.start, end, seat_count: ride.seat_count });
    const trip = tripOf(p, miles);
    trips.redirect(ride, end!, trip, p.product.upfront_fare_enabled ? upfrontFare(p, trip, ride.surge) : undefined);
    return { status: 204 };
  });

  router.get('/v1.2/requests/{request_id}/map', (req) => {
    const ride = owned(req, READ_SCOPES);
    const map: RideMap = { request_id: ride.request_id, href: sandboxUrl(req, `${RIDE_MAP_PATH}/${encodeURIComponent(ride.request_id)}`) };
    return json(200, map);
  });

  const receipt = (req: SandboxRequest) => {
    const ride = owned(req, ['request_receipt', ...READ_SCOPES]);
    if (ride.status !== 'completed') throw riderError(404, 'receipt_not_ready', `The receipt is ready once the ride is completed (it is ${ride.status}).`);
    return json(200, receiptOf(ride));
  };
  router.get('/v1.2/requests/{request_id}/receipts', receipt);
  // The same, at the singular path the official Python rides SDK calls (spec 4.4 names /receipts).
  router.get('/v1.2/requests/{request_id}/receipt', receipt);

  router.get('/v1.2/history', (req) => {
    const { user } = userCaller(ctx, req, READ_SCOPES);
    const fields: Record<string, string[]> = {};
    const int = (name: string, fallback: number, min: number, max: number) => {
      const raw = req.query.get(name);
      if (raw === null || raw === '') return fallback;
      if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) fields[name] = [`must be a whole number from ${min} to ${max}`];
      return Number(raw);
    };
    const limit = int('limit', HISTORY_DEFAULT_LIMIT, 1, HISTORY_MAX_LIMIT);
    const offset = int('offset', 0, 0, Number.MAX_SAFE_INTEGER);
    if (Object.keys(fields).length) throw validationFailed(fields);
    const rides = trips.ofUser(user.rider_id);
    const seconds = (ms: number | undefined) => (ms === undefined ? null : Math.floor(ms / 1000));
    const history: HistoryItem[] = rides.slice(offset, offset + limit).map((r) => ({
      request_id: r.request_id,
      product_id: r.product.product.product_id,
      status: r.status,
      distance: round(r.trip.miles, 2),
      request_time: Math.floor(r.requested_at / 1000),
      start_time: seconds(r.started_at),
      end_time: seconds(r.ended_at),
      start_city: { display_name: r.product.city.name.en, latitude: r.product.city.center.latitude, longitude: r.product.city.center.longitude },
    }));
    return json(200, { offset, limit, count: rides.length, history });
  });
}
