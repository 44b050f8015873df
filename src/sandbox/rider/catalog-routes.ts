// GET /v1.2/products, /v1.2/products/{id}, /v1.2/estimates/price, /v1.2/estimates/time
// (spec 4.4). Products and price estimates also take a server token.
import { MAX_TRIP_MILES, PriceEstimateQuery, TimeEstimateQuery, type TimeEstimate } from '../../schemas/rider.js';
import type { SandboxContext } from '../context.js';
import { header, json, type SandboxRequest } from '../http.js';
import type { Router } from '../router.js';
import { riderCaller } from './auth.js';
import { languageOf, productResource, type CatalogProduct } from './catalog.js';
import { numericQuery, parseOr422, riderError, validationFailed } from './errors.js';
import { milesBetween, type Point } from './geo.js';
import { priceEstimate, tripOf } from './pricing.js';
import type { RiderState } from './state.js';

/** ETA of the nearest driver, stable for a product and place: 2 to 10 minutes. */
export function etaSeconds(p: CatalogProduct, at: Point): number {
  const key = `${p.product.product_id}:${at.latitude.toFixed(3)},${at.longitude.toFixed(3)}`;
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619) >>> 0;
  return 120 + (h % 9) * 60;
}

export function tooFar(miles: number): never {
  throw riderError(422, 'distance_exceeded', `Distance between the start and end locations (${miles.toFixed(1)} miles) exceeds ${MAX_TRIP_MILES} miles.`);
}

export function registerCatalogRoutes(router: Router, ctx: SandboxContext, state: RiderState): void {
  const lang = (req: SandboxRequest) => languageOf(header(req, 'accept-language'));

  router.get('/v1.2/products', (req) => {
    riderCaller(ctx, req, { server: true });
    const q = numericQuery(req.query, ['latitude', 'longitude']);
    const fields: Record<string, string[]> = {};
    for (const name of ['latitude', 'longitude'] as const) {
      if (q[name] === undefined) fields[name] = ['Required'];
      else if (typeof q[name] !== 'number' || Math.abs(q[name]) > (name === 'latitude' ? 90 : 180)) fields[name] = ['must be a number in range'];
    }
    if (Object.keys(fields).length) throw validationFailed(fields);
    const city = state.catalog.cityAt({ latitude: q.latitude as number, longitude: q.longitude as number });
    const language = lang(req);
    return json(200, { products: city ? city.products.map((p) => productResource(p, language)) : [] }, { 'content-language': language });
  });

  router.get('/v1.2/products/{product_id}', (req) => {
    riderCaller(ctx, req, { server: true });
    const p = state.catalog.product(req.params.product_id!);
    if (!p) throw riderError(404, 'not_found', `No product with id ${req.params.product_id}.`);
    return json(200, productResource(p, lang(req)));
  });

  router.get('/v1.2/estimates/price', (req) => {
    riderCaller(ctx, req, { server: true });
    const q = parseOr422(PriceEstimateQuery, numericQuery(req.query, ['start_latitude', 'start_longitude', 'end_latitude', 'end_longitude', 'seat_count']));
    const start = { latitude: q.start_latitude, longitude: q.start_longitude };
    const end = { latitude: q.end_latitude, longitude: q.end_longitude };
    const miles = milesBetween(start, end);
    if (miles > MAX_TRIP_MILES) tooFar(miles);
    const city = state.catalog.cityAt(start);
    const language = lang(req);
    const prices = (city?.products ?? []).map((p) => priceEstimate(p, tripOf(p, miles), state.surge(p, start), language));
    return json(200, { prices });
  });

  router.get('/v1.2/estimates/time', (req) => {
    riderCaller(ctx, req, {});
    const q = parseOr422(TimeEstimateQuery, {
      ...numericQuery(req.query, ['start_latitude', 'start_longitude']),
      product_id: req.query.get('product_id') || undefined,
    });
    const start = { latitude: q.start_latitude, longitude: q.start_longitude };
    const city = state.catalog.cityAt(start);
    const language = lang(req);
    const times: TimeEstimate[] = (city?.products ?? [])
      // A product with no driver near is absent (spec 4.4).
      .filter((p) => state.drivers(p) && (!q.product_id || p.product.product_id === q.product_id))
      .map((p) => ({
        product_id: p.product.product_id,
        display_name: p.text.en.display_name,
        localized_display_name: p.text[language].display_name,
        estimate: etaSeconds(p, start),
      }));
    return json(200, { times });
  });
}
