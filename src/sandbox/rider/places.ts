// A rider's saved places (spec 4.4: home and work only): GET/PUT /v1.2/places/{place_id},
// and the start_place_id/end_place_id of estimates, requests and request updates. The spec
// leaves the shapes open; these are the public Riders API's ({address}). The sandbox has no
// geocoder: an address that names a seeded city gets a stable point in it.
import { createHash } from 'node:crypto';
import { PLACE_IDS, PutPlaceBody, type Place, type PlaceId } from '../../schemas/rider.js';
import type { SandboxContext } from '../context.js';
import { json } from '../http.js';
import type { Router } from '../router.js';
import { userCaller } from './auth.js';
import type { Catalog } from './catalog.js';
import { jsonBody, parseOr422, riderError, validationFailed } from './errors.js';
import type { Point } from './geo.js';
import type { RiderState } from './state.js';

export interface SavedPlace extends Point {
  address: string;
}

/** The public Riders API asked for a "places" scope the spec does not name: profile or request here. */
const PLACE_SCOPES = ['profile', 'request'];
/** Saved addresses land this far from their city's center at most. */
const SPREAD_MILES = 3;

const isPlaceId = (id: string): id is PlaceId => (PLACE_IDS as readonly string[]).includes(id);

/** A stable point for an address in one of the catalog's cities, or undefined when it names none. */
export function locate(catalog: Catalog, address: string): Point | undefined {
  const text = address.toLowerCase();
  const city = catalog.cities.find((c) => Object.values(c.name).some((name) => text.includes(name.toLowerCase())));
  if (!city) return undefined;
  const h = createHash('sha256').update(text.replace(/\s+/g, ' ').trim()).digest();
  const angle = (h.readUInt16BE(0) / 65536) * 2 * Math.PI;
  const miles = 0.5 + (h.readUInt16BE(2) / 65536) * (SPREAD_MILES - 0.5);
  const latitude = city.center.latitude + (miles * Math.cos(angle)) / 69;
  const longitude = city.center.longitude + (miles * Math.sin(angle)) / (69 * Math.cos((city.center.latitude * Math.PI) / 180));
  return { latitude: Math.round(latitude * 1e6) / 1e6, longitude: Math.round(longitude * 1e6) / 1e6 };
}

/** The saved place a body names, or 422 (spec 7.2 shape) naming the field when it is not set. */
export function placePoint(state: RiderState, userId: string, field: string, id: PlaceId): Point {
  const saved = state.places.get(userId)?.[id];
  if (!saved) throw validationFailed({ [field]: [`no ${id} place is saved: PUT /v1.2/places/${id} with an address first`] }, `The ${id} place is not set.`);
  return { latitude: saved.latitude, longitude: saved.longitude };
}

interface EndsInput {
  start_latitude?: number;
  start_longitude?: number;
  start_place_id?: PlaceId;
  end_latitude?: number;
  end_longitude?: number;
  end_place_id?: PlaceId;
}

/** A body's start and end: coordinates where given, else the saved places (the schema made sure a start is named). */
export function tripEnds(state: RiderState, userId: string, body: EndsInput): { start: Point; end: Point | undefined } {
  const start =
    body.start_latitude !== undefined && body.start_longitude !== undefined
      ? { latitude: body.start_latitude, longitude: body.start_longitude }
      : placePoint(state, userId, 'start_place_id', body.start_place_id!);
  let end: Point | undefined;
  if (body.end_latitude !== undefined && body.end_longitude !== undefined) end = { latitude: body.end_latitude, longitude: body.end_longitude };
  else if (body.end_place_id !== undefined) end = placePoint(state, userId, 'end_place_id', body.end_place_id);
  return { start, end };
}

export function registerPlaceRoutes(router: Router, ctx: SandboxContext, state: RiderState): void {
  const placeOf = (raw: string): PlaceId => {
    if (!isPlaceId(raw)) throw riderError(404, 'not_found', `No place ${raw}: place ids are ${PLACE_IDS.join(' and ')}.`);
    return raw;
  };

  router.get('/v1.2/places/{place_id}', (req) => {
    const { user } = userCaller(ctx, req, PLACE_SCOPES);
    const id = placeOf(req.params.place_id!);
    const saved = state.places.get(user.rider_id)?.[id];
    if (!saved) throw riderError(404, 'not_found', `No ${id} place is saved yet; PUT /v1.2/places/${id} with an address.`);
    return json(200, { address: saved.address } satisfies Place);
  });

  router.add('PUT', '/v1.2/places/{place_id}', (req) => {
    const { user } = userCaller(ctx, req, PLACE_SCOPES);
    const id = placeOf(req.params.place_id!);
    const { address } = parseOr422(PutPlaceBody, jsonBody(req.body));
    const point = locate(state.catalog, address);
    if (!point) {
      const cities = state.catalog.cities.map((c) => c.name.en).join(', ');
      throw validationFailed({ address: [`the sandbox locates addresses in ${cities}: name the city`] }, 'The address could not be located.');
    }
    state.places.set(user.rider_id, { ...state.places.get(user.rider_id), [id]: { address, ...point } });
    return json(200, { address } satisfies Place);
  });
}
