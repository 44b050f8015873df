// Limits of the ads API as plain constants, free of zod, so that the command tree (and so
// `platform --help`) and the list commands can name them without loading the schema
// library. schemas/ads.ts re-exports them for the schemas.

/** Largest page the API serves (spec 8). */
export const MAX_PAGE_LIMIT = 2000;
/** Page size when page_limit is absent (the real default is not shown; ours). */
export const DEFAULT_PAGE_LIMIT = 50;
/** Most items one batch create/patch accepts (not shown in the spec; ours, enforced by the sandbox). */
export const MAX_BATCH_ITEMS = 1000;
