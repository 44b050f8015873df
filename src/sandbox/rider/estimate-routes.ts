// POST /v1.2/requests/estimate and the deprecated POST /v1/requests/estimate (spec 4.4,
// 9.3): the upfront fare (fare_id, expires_at), trip, pickup estimate and surge fields.
import { MAX_SEATS, RequestEstimateBody, type RequestEstimate } from '../../schemas/rider.js';
import type { SandboxContext } from '../context.js';
import { header, json, type SandboxRequest } from '../http.js';
import type { Router } from '../router.js';
import { userCaller } from './auth.js';
import type { CatalogProduct } from './catalog.js';
import { etaSeconds } from './catalog-routes.js';
import { jsonBodyWithoutNulls, parseOr422, riderError } from './errors.js';
import { round } from './geo.js';
import { formatMoney } from '../../schemas/money.js';
import { fareParts, fareRange, inUnit, tripOf, upfrontFare } from './pricing.js';
import { FARE_LIFETIME_MS, newId, type RiderState } from './state.js';
import { checkTrip } from './trip-checks.js';
import { tripEnds } from './places.js';
import type { Trips } from './trips.js';

/** Absolute URL on this sandbox (for hrefs in bodies). */
export function sandboxUrl(req: SandboxRequest, path: string): string {
  return `http://${header(req, 'host') ?? '127.0.0.1'}${path}`;
}

export function surgeConfirmation(ctx: SandboxContext, state: RiderState, req: SandboxRequest, p: CatalogProduct, userId: string, multiplier: number) {
  const id = newId('sc_');
  const expiresAt = ctx.now() + FARE_LIFETIME_MS;
  state.confirmations.set(id, { surge_confirmation_id: id, product_id: p.product.product_id, user_id: userId, multiplier, expires_at: expiresAt });
  return { href: sandboxUrl(req, `/v1.2/surge-confirmations/${id}`), surge_confirmation_id: id, multiplier, expires_at: Math.floor(expiresAt / 1000) };
}

export function registerEstimateRoutes(router: Router, ctx: SandboxContext, state: RiderState, trips: Trips): void {
  const estimate = (req: SandboxRequest, deprecated: boolean) => {
    const { user, token } = userCaller(ctx, req, ['request']);
    const body = parseOr422(RequestEstimateBody, jsonBodyWithoutNulls(req.body));
    if (trips.current(user.rider_id)) throw riderError(403, 'current_trip_exists', 'You are already on a trip; finish or cancel it first.');
    const { start, end } = tripEnds(state, user.rider_id, body);
    let p: CatalogProduct | undefined;
    if (body.product_id) {
      p = state.catalog.product(body.product_id);
      if (!p) throw riderError(404, 'not_found', `No product with id ${body.product_id}.`);
    } else {
      // The default is the cheapest product at the location (spec 4.4).
      const city = state.catalog.cityAt(start);
      p = city?.products.slice().sort((a, b) => a.rates.minimum - b.rates.minimum)[0];
      if (!p) throw riderError(404, 'no_product_found', 'No product is available at the start location.');
    }
    const miles = checkTrip(p, { start, end, seat_count: body.seat_count });
    const surge = state.surge(p, start);
    const confirmation = surge > 1 ? surgeConfirmation(ctx, state, req, p, user.rider_id, surge) : undefined;
    const pickup = state.drivers(p) ? Math.ceil(etaSeconds(p, start) / 60) : null;
    const currency = p.rates.currency_code;
    const price: RequestEstimate['price'] = {
      surge_confirmation_href: confirmation?.href ?? null,
      surge_confirmation_id: confirmation?.surge_confirmation_id ?? null,
      surge_multiplier: surge,
      minimum: Math.round(p.rates.minimum),
    };
    let trip: RequestEstimate['trip'] = null;
    if (end) {
      const t = tripOf(p, miles);
      trip = { distance_estimate: round(inUnit(p, miles), 2), distance_unit: p.rates.distance_unit, duration_estimate: t.seconds };
      if (p.product.upfront_fare_enabled) {
        const fare = upfrontFare(p, t, surge);
        const fareId = newId('fare_');
        const expiresAt = ctx.now() + FARE_LIFETIME_MS;
        state.fares.set(fareId, {
          fare_id: fareId,
          product_id: p.product.product_id,
          user_id: user.rider_id,
          start,
          end,
          seat_count: body.seat_count ?? Math.min(MAX_SEATS, p.product.capacity),
          surge,
          expires_at: expiresAt,
        });
        // Upfront fares have an empty breakdown (spec 2.8).
        Object.assign(price, {
          low_estimate: Math.floor(fare),
          high_estimate: Math.ceil(fare),
          display: formatMoney(fare, currency),
          currency_code: currency,
          fare_breakdown: [],
          fare_id: fareId,
          expires_at: Math.floor(expiresAt / 1000),
        });
      } else {
        const { low, high } = fareRange(p, t, surge);
        const parts = fareParts(p, t);
        const item = (name: string, amount: number) => ({
          low_amount: round(amount * 0.9, 2),
          high_amount: round(amount * 1.2, 2),
          display_amount: `${formatMoney(amount * 0.9, currency)}-${formatMoney(amount * 1.2, currency)}`,
          display_name: name,
        });
        Object.assign(price, {
          low_estimate: low,
          high_estimate: high,
          display: 'Metered',
          currency_code: null,
          fare_breakdown: [item('Base Fare', parts.base), item('Time', parts.time), item('Distance', parts.distance)],
        });
      }
    }
    void token;
    const response: RequestEstimate = { price, trip, pickup_estimate: pickup };
    return json(
      200,
      response,
      deprecated
        ? { deprecation: 'true', sunset: 'Sat, 10 Dec 2022 00:00:00 GMT', link: `<${sandboxUrl(req, '/v1.2/requests/estimate')}>; rel="successor-version"` }
        : undefined,
    );
  };
  router.post('/v1.2/requests/estimate', (req) => estimate(req, false));
  router.post('/v1/requests/estimate', (req) => estimate(req, true));

  router.get('/v1.2/surge-confirmations/{id}', (req) => {
    const c = state.confirmations.get(req.params.id!);
    if (!c) throw riderError(404, 'not_found', 'No such surge confirmation.');
    return json(200, {
      surge_confirmation_id: c.surge_confirmation_id,
      product_id: c.product_id,
      multiplier: c.multiplier,
      expires_at: Math.floor(c.expires_at / 1000),
      expired: c.expires_at <= ctx.now(),
    });
  });
}
