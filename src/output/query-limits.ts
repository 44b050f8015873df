// How big a --query may be: plain data, read by the --query help text and by query.ts.

/** Longest expression taken: far beyond any written by hand, short of what overflows the parser. */
export const MAX_QUERY_LENGTH = 4096;
/** Deepest expression taken, in levels of its syntax tree (each `.`, `|`, `[...]`, `{...}`, call or comparison adds one). */
export const MAX_QUERY_DEPTH = 100;
