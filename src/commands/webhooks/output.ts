/**
 * Webhooks commands print readable lines unless -o json/ndjson (or --json) asks for JSON:
 * their output is a verdict or a log of events, not a resource list.
 */
export function wantsJson(ctx: { globals: { output?: string } }): boolean {
  return ctx.globals.output === 'json' || ctx.globals.output === 'ndjson';
}
