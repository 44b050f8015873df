// Flags shared by the rider commands: locations (--from LAT,LNG, --from-place home), seats, language, the
// server token. Bad input is a one-line UsageError naming the flag (exit 2, nothing sent).
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import type { CatalogOptions, LatLng } from '../../api/rider.js';
import { MAX_SEATS, PLACE_IDS, type PlaceId, type RequestEstimateBody, type UpdateRequestBody } from '../../schemas/rider.js';

const NUMBER = /^-?\d+(?:\.\d+)?$/;

/** "37.7749,-122.4194" -> {latitude, longitude}. */
export function parseLocation(flag: string, value: string | undefined): LatLng {
  if (value === undefined) throw new UsageError(`${flag} is required: a location as LAT,LNG, e.g. 37.7749,-122.4194`);
  const parts = value.split(',').map((s) => s.trim());
  const example = 'e.g. 37.7749,-122.4194';
  if (parts.length !== 2 || !parts.every((p) => NUMBER.test(p)))
    throw new UsageError(`${flag} "${value}" is not a location: give LAT,LNG in decimal degrees, ${example}`);
  const [latitude, longitude] = parts.map(Number) as [number, number];
  if (latitude < -90 || latitude > 90) throw new UsageError(`${flag} "${value}": latitude ${latitude} is outside -90..90 (${example})`);
  if (longitude < -180 || longitude > 180) throw new UsageError(`${flag} "${value}": longitude ${longitude} is outside -180..180 (${example})`);
  return { latitude, longitude };
}

export function checkSeats(seats: number | undefined): number | undefined {
  if (seats !== undefined && (seats < 1 || seats > MAX_SEATS))
    throw new UsageError(`--seats ${seats}: shared rides take 1 or ${MAX_SEATS} seats (at most ${MAX_SEATS})`);
  return seats;
}

/** --lang, else the locale of the environment (LC_ALL, LANG), as an Accept-Language value. */
export function language(ctx: Context, flag: string | undefined): string | undefined {
  const raw = flag ?? ctx.env.LC_ALL ?? ctx.env.LANG;
  if (!raw || raw === 'C' || raw === 'POSIX') return undefined;
  return raw.split('.')[0]!.replace('_', '-');
}

/** Catalog calls (products, price estimates) may use $PLATFORM_SERVER_TOKEN (spec 5.9). */
export function catalogOptions(ctx: Context, lang: string | undefined): CatalogOptions {
  return { language: language(ctx, lang), serverToken: ctx.env.PLATFORM_SERVER_TOKEN || undefined };
}

/** --from-place / --to-place / a place argument: one of the places a rider saves (spec 4.4). */
export function parsePlace(flag: string, value: string): PlaceId {
  const id = value.trim().toLowerCase();
  if (!(PLACE_IDS as readonly string[]).includes(id)) throw new UsageError(`${flag} "${value}" is not a place: use ${PLACE_IDS.join(' or ')}`);
  return id as PlaceId;
}

/** One end of a trip: coordinates, or a saved place the API resolves. */
export type TripEnd = { at: LatLng } | { place: PlaceId };

/** --from/--from-place (or --to/--to-place): exactly one of them, or neither when the end is optional. */
export function tripEnd(flag: '--from' | '--to', coords: string | undefined, place: string | undefined, required: true): TripEnd;
export function tripEnd(flag: '--from' | '--to', coords: string | undefined, place: string | undefined, required: boolean): TripEnd | undefined;
export function tripEnd(flag: '--from' | '--to', coords: string | undefined, place: string | undefined, required: boolean): TripEnd | undefined {
  if (coords !== undefined && place !== undefined) throw new UsageError(`give ${flag} or ${flag}-place, not both`);
  if (place !== undefined) return { place: parsePlace(`${flag}-place`, place) };
  if (coords !== undefined) return { at: parseLocation(flag, coords) };
  if (required) throw new UsageError(`${flag} or ${flag}-place is required: a location as LAT,LNG (e.g. 37.7749,-122.4194), or ${PLACE_IDS.join(' or ')}`);
  return undefined;
}

/** The body fields of a trip's start: start_latitude/start_longitude, or start_place_id. */
export function startFields(end: TripEnd): Pick<RequestEstimateBody, 'start_latitude' | 'start_longitude' | 'start_place_id'> {
  return 'place' in end ? { start_place_id: end.place } : { start_latitude: end.at.latitude, start_longitude: end.at.longitude };
}

/** The body fields of a trip's destination (none without one): end_latitude/end_longitude, or end_place_id. */
export function destinationFields(end: TripEnd | undefined): Pick<UpdateRequestBody, 'end_latitude' | 'end_longitude' | 'end_place_id'> {
  if (!end) return {};
  return 'place' in end ? { end_place_id: end.place } : { end_latitude: end.at.latitude, end_longitude: end.at.longitude };
}
