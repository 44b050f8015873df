// Targeted faults (`sandbox serve --fault`): `[METHOD ]PATH=OUTCOME[:RATE]`, e.g.
// `POST /v1/ads/*/campaigns=500:0.2`. PATH is matched segment by segment; `*` is any one
// segment and a final `**` any rest. OUTCOME is an HTTP status 400-599 (429 comes with
// Retry-After) or `drop` (the connection is closed unanswered). RATE is a share 0-1, default 1.

export interface FaultRule {
  /** The rule as written, for the log. */
  text: string;
  /** Upper-case method, or undefined for any. */
  method: string | undefined;
  segments: string[];
  outcome: number | 'drop';
  rate: number;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', '*'];

/** The rule, or a sentence saying what is wrong with it. */
export function parseFaultRule(text: string): FaultRule | string {
  const bad = (why: string) => `--fault ${JSON.stringify(text)}: ${why}; expected [METHOD ]PATH=STATUS[:RATE], e.g. 'POST /v1/ads/*/campaigns=500:0.2'`;
  const eq = text.lastIndexOf('=');
  if (eq < 0) return bad('no =');
  const target = text.slice(0, eq).trim();
  const [outcomeText = '', rateText, extra] = text
    .slice(eq + 1)
    .trim()
    .split(':');
  if (extra !== undefined) return bad('more than one :');
  const parts = target.split(/\s+/);
  if (parts.length > 2) return bad('more than a method and a path');
  const method = parts.length === 2 ? parts[0]!.toUpperCase() : undefined;
  const path = parts[parts.length - 1]!;
  if (method !== undefined && !METHODS.includes(method)) return bad(`unknown method ${parts[0]}`);
  if (!path.startsWith('/')) return bad('the path must start with /');
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.slice(0, -1).includes('**')) return bad('** may only end the path');
  let outcome: number | 'drop';
  if (outcomeText === 'drop') outcome = 'drop';
  else if (/^[45]\d\d$/.test(outcomeText)) outcome = Number(outcomeText);
  else return bad(`the outcome must be an HTTP status 400-599 or drop, not ${JSON.stringify(outcomeText)}`);
  const rate = rateText === undefined ? 1 : /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(rateText) ? Number(rateText) : NaN;
  if (Number.isNaN(rate)) return bad(`the rate must be a number from 0 to 1, not ${JSON.stringify(rateText)}`);
  return { text, method: method === '*' ? undefined : method, segments, outcome, rate };
}

export function ruleMatches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method !== undefined && rule.method !== method) return false;
  const parts = path.split('/').filter((s) => s !== '');
  for (let i = 0; i < rule.segments.length; i++) {
    const segment = rule.segments[i]!;
    if (segment === '**') return true;
    const part = parts[i];
    if (part === undefined || (segment !== '*' && segment !== part)) return false;
  }
  return parts.length === rule.segments.length;
}
