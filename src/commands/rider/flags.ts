// Flags shared by the rider commands: locations (--from LAT,LNG), seats, language, the
// server token. Bad input is a one-line UsageError naming the flag (exit 2, nothing sent).
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { CatalogOptions, LatLng } from '../../api/rider.js';
import { MAX_SEATS } from '../../schemas/rider.js';

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
