// UTC date helpers for report ranges. Every value is milliseconds since the epoch and every
// calendar rule (midnight, Monday, the 1st) is read in UTC, never in the local time zone.

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An RFC 3339 date-time (`2025-08-01T00:00:00Z`, `...+02:00`, fractions allowed) -> ms, or undefined. */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, , zone] = m;
  if (!validDate(Number(y), Number(mo), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  if (zone !== 'Z' && zone !== 'z') {
    const [zh, zm] = zone!.slice(1).split(':').map(Number);
    if (zh! > 23 || zm! > 59) return undefined;
  }
  const ms = Date.parse(text.toUpperCase());
  return Number.isNaN(ms) ? undefined : ms;
}

/** A calendar date `2025-08-01` (midnight UTC) or an RFC 3339 date-time -> ms, or undefined. */
export function parseDateOrTime(text: string): number | undefined {
  const m = DATE_ONLY.exec(text);
  if (!m) return parseRfc3339(text);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return validDate(y, mo, d) ? Date.UTC(y, mo - 1, d) : undefined;
}

function validDate(y: number, mo: number, d: number): boolean {
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** `2025-08-01T00:00:00Z`: seconds precision, always Z. */
export function formatUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const isUtcMidnight = (ms: number): boolean => ms % DAY_MS === 0;
export const isWholeUtcHour = (ms: number): boolean => ms % HOUR_MS === 0;
export const startOfUtcDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;
export const addUtcDays = (ms: number, days: number): number => ms + days * DAY_MS;

/** 0 = Sunday, 1 = Monday ... 6 = Saturday. */
export const utcWeekday = (ms: number): number => new Date(ms).getUTCDay();

/** Same day-of-month and time `months` later (callers use it on the 1st only). */
export function addUtcMonths(ms: number, months: number): number {
  const d = new Date(ms);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.getTime();
}

/** Monday 00:00 UTC of the week holding `ms`. */
export function startOfUtcWeek(ms: number): number {
  const day = startOfUtcDay(ms);
  return addUtcDays(day, -((utcWeekday(day) + 6) % 7));
}

/** 1st 00:00 UTC of the month holding `ms`. */
export function startOfUtcMonth(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}
