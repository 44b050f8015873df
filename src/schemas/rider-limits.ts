// Rider API limits (spec 8) without zod, so that the command tree (--help, completions)
// can name them without loading the schemas.

/** seat_count: default and maximum 2. */
export const MAX_SEATS = 2;
/** Start to end distance limit. */
export const MAX_TRIP_MILES = 100;
/** GET /history page size (not shown in the spec; the sandbox's). */
export const HISTORY_MAX_LIMIT = 50;
export const HISTORY_DEFAULT_LIMIT = 5;
/** The places a rider can save and name in requests (spec 4.4: home or work only). */
export const PLACE_IDS = ['home', 'work'] as const;
