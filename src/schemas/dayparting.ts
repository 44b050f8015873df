// Dayparting as people write it (`mon-fri=11:00-14:00`, `sat,sun=10:00-24:00`) and as the
// API holds it: seven days, Monday first (the OpenAPI's dayparting_day_schedule).
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export class DaypartingError extends Error {}

interface Time {
  hour: number;
  minute: number;
}

function parseTime(text: string): Time {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) throw new DaypartingError(`"${text}" is not a time like 06:00`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

function parseDays(text: string): number[] {
  const days = new Set<number>();
  for (const part of text.toLowerCase().split(/[,+]/)) {
    const [from, to] = part.split('-').map((d) => DAYS.indexOf(d.trim().slice(0, 3)));
    if (from === undefined || from < 0 || (to !== undefined && to < 0))
      throw new DaypartingError(`"${part}" is not a day or day range (mon..sun, e.g. mon-fri)`);
    for (let d = from; d <= (to ?? from); d++) days.add(d);
  }
  return [...days];
}

/** `mon-fri=06:00-22:00` entries -> the 7-day dayparting schedule, Monday first. */
export function parseDayparting(entries: readonly string[]): { dayparting_day_schedule: Array<{ intervals: unknown[] }> } {
  const week = DAYS.map(() => ({ intervals: [] as unknown[] }));
  for (const entry of entries) {
    const [days, range] = entry.split('=');
    const [start, end] = (range ?? '').split('-');
    if (!days || !start || !end) throw new DaypartingError(`"${entry}" is not DAYS=HH:MM-HH:MM (e.g. mon-fri=06:00-22:00)`);
    const interval = { start_time: parseTime(start), end_time: parseTime(end) };
    for (const day of parseDays(days)) week[day]!.intervals.push(interval);
  }
  return { dayparting_day_schedule: week };
}

/** The schedule back as entries (one per day and interval), joined by `|` for a CSV cell. */
export function formatDayparting(schedule: unknown): string | undefined {
  const days = (schedule as { dayparting_day_schedule?: Array<{ intervals?: Array<{ start_time?: Time; end_time?: Time }> }> } | undefined)
    ?.dayparting_day_schedule;
  if (!days) return undefined;
  const time = (t: Time | undefined) => `${String(t?.hour ?? 0).padStart(2, '0')}:${String(t?.minute ?? 0).padStart(2, '0')}`;
  return days.flatMap((d, i) => (d.intervals ?? []).map((iv) => `${DAYS[i]}=${time(iv.start_time)}-${time(iv.end_time)}`)).join('|');
}
