// Where `webhooks listen` forwards each delivery: `--route TYPE=URL` (repeatable, `*` for the
// types no other route names) and `--forward-to URL` (the same as `--route '*=URL'`).
// Parsing returns a message naming the flag; the command turns it into a usage error.

export const ANY_TYPE = '*';

export interface ForwardRoutes {
  /** The target of an event type, or undefined when it goes nowhere. */
  targetFor(eventType: string | undefined): string | undefined;
  /** Every distinct target, in the order given. */
  targets(): string[];
  /** TYPE -> URL pairs as given (for the start-up line and the inbox page). */
  entries(): Array<[string, string]>;
}

export function parseRoutes(
  specs: readonly string[],
  forwardTo: string | undefined,
  knownTypes: readonly string[],
  checkUrl: (url: string, flag: string) => void,
): ForwardRoutes | string {
  const map = new Map<string, string>();
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const type = eq < 0 ? '' : spec.slice(0, eq).trim();
    const url = eq < 0 ? '' : spec.slice(eq + 1).trim();
    if (!type || !url)
      return `--route ${JSON.stringify(spec)}: expected TYPE=URL, e.g. requests.receipt_ready=http://127.0.0.1:3000/receipts (* for the other types)`;
    if (type !== ANY_TYPE && !knownTypes.includes(type))
      return `--route ${JSON.stringify(spec)}: unknown event type ${JSON.stringify(type)}; known: ${knownTypes.join(', ')}, or *`;
    if (map.has(type)) return `--route: ${type} is routed twice; give each event type one URL`;
    checkUrl(url, `--route ${type}`);
    map.set(type, url);
  }
  if (forwardTo !== undefined) {
    if (map.has(ANY_TYPE)) return '--forward-to and --route *=URL both name where the other event types go; give one of them';
    map.set(ANY_TYPE, forwardTo);
  }
  return {
    targetFor: (eventType) => (eventType !== undefined && map.get(eventType)) || map.get(ANY_TYPE),
    targets: () => [...new Set(map.values())],
    entries: () => [...map],
  };
}
