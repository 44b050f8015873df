// Why a signature does not match: tries the changes that commonly happen to a body (or to
// the key) between the sender and the check, and names the first one that makes the HMAC
// match. Each candidate is the body the sender may have signed, derived from the bytes
// received. Secrets are tried by name and never appear in a message.
import { matches } from './hmac.js';

export interface NamedSecret {
  /** How the secret is named in messages, e.g. "PLATFORM_WEBHOOK_SECRET". */
  name: string;
  value: string;
}

export interface Diagnosis {
  /** A stable name of the mistake, for scripts (-o json) and tests. */
  case: string;
  message: string;
}

interface Candidate {
  case: string;
  body: Buffer;
  message: string;
}

/** The order of spec 6.1, in which the platform writes a payload's keys. */
const SPEC_ORDER = ['event_id', 'event_time', 'event_type', 'meta', 'user_id', 'resource_id', 'resource_type', 'status', 'resource_href'];

export function diagnose(body: Uint8Array, secret: NamedSecret, signature: Buffer, alternatives: readonly NamedSecret[]): Diagnosis | undefined {
  const candidates = bodyCandidates(Buffer.from(body));
  for (const c of candidates) {
    if (matches(c.body, secret.value, signature)) return { case: c.case, message: c.message };
  }
  for (const alt of alternatives) {
    if (alt.value === secret.value) continue;
    const other = `it matches with ${alt.name}, not ${secret.name}: the sender signs with the other secret`;
    if (matches(body, alt.value, signature)) return { case: 'different-secret', message: other };
    for (const c of candidates) {
      if (matches(c.body, alt.value, signature))
        return { case: `different-secret+${c.case}`, message: `${other}; and ${c.message.replace(/^it matches /, 'then it matches ')}` };
    }
  }
  return undefined;
}

/** Bodies the sender may have signed, most likely first. */
export function bodyCandidates(body: Buffer): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>([body.toString('latin1')]);
  const add = (c: Candidate) => {
    const key = c.body.toString('latin1');
    if (seen.has(key)) return;
    seen.add(key);
    out.push(c);
  };
  const text = body.toString('utf8');
  if (text.startsWith('\uFEFF')) {
    add({
      case: 'bom-added',
      body: Buffer.from(text.slice(1)),
      message: 'it matches the body without its leading byte-order mark (EF BB BF): an editor added one; verify the exact bytes received',
    });
  }
  const stripped = text.replace(/(\r?\n)+$/, '');
  if (stripped !== text) {
    add({
      case: 'trailing-newline-added',
      body: Buffer.from(stripped),
      message:
        'it matches the body without its final newline: a newline was added after the body was signed (an editor, `echo` or a heredoc does this); verify the exact bytes received',
    });
  }
  for (const ending of ['\n', '\r\n']) {
    add({
      case: 'trailing-newline-removed',
      body: Buffer.from(text + ending),
      message: `it matches the body with a final ${ending === '\n' ? 'newline' : 'CRLF'}: the signed body ended with one, your copy lost it (a trim, or $(...) in a shell); verify the exact bytes received`,
    });
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(stripped.replace(/^\uFEFF/, ''));
  } catch {
    return out;
  }
  const pretty = /\n\s|^\{\s|":\s/.test(stripped);
  /** The JSON re-serialized as it is, and with its keys reordered: what each change is called. */
  const reserialized: Array<{ value: unknown; change: Omit<Candidate, 'body'> }> = [
    {
      value: parsed,
      change: {
        case: pretty ? 'pretty-printed' : 're-encoded',
        message: pretty
          ? 'it matches the same JSON written compactly: your copy was pretty-printed (re-serialized) after it was signed; verify over the raw bytes as received, not a re-serialized body'
          : 'it matches the body re-encoded from parsed JSON (compact, its escapes normalised): one side signed or checked a re-serialized body; verify over the raw body as received',
      },
    },
    ...(
      [
        ['the order spec 6.1 gives (event_id, event_time, event_type, meta, resource_href)', orderKeys(parsed, bySpecOrder)],
        ['sorted order', orderKeys(parsed, (a, b) => (a < b ? -1 : a > b ? 1 : 0))],
      ] as const
    ).map(([name, value]) => ({
      value,
      change: {
        case: 'keys-reordered',
        message: `it matches the same JSON with its keys in ${name}: the keys were reordered when the body was re-serialized; verify over the raw bytes as received`,
      },
    })),
  ];
  for (const { value, change } of reserialized) add({ ...change, body: Buffer.from(JSON.stringify(value)) });
  for (const indent of [2, 4, '\t'] as const) {
    add({
      case: 'pretty-printed',
      body: Buffer.from(JSON.stringify(parsed, null, indent)),
      message: `it matches the same JSON pretty-printed (indent ${indent === '\t' ? 'tab' : indent}): the sender signed a pretty-printed body and your copy was re-serialized; verify over the raw bytes as received`,
    });
  }
  // Escapes the body still has were not removed: a match with them is the re-serialization alone.
  const kept = { slashes: /\\\//.test(stripped), nonAscii: /\\u[0-9a-fA-F]{4}/.test(stripped) };
  for (const { value, change } of reserialized) {
    const json = JSON.stringify(value);
    for (const [what, escaped, wereKept] of [
      ['\\/', escapeSlashes(json), kept.slashes],
      ['\\uXXXX', escapeNonAscii(json), kept.nonAscii],
      ['\\/ and \\uXXXX', escapeNonAscii(escapeSlashes(json)), kept.slashes && kept.nonAscii],
    ] as const) {
      add(
        wereKept
          ? { ...change, body: Buffer.from(escaped) }
          : {
              case: 'backslashes-stripped',
              body: Buffer.from(escaped),
              message: `it matches the body with its backslash escapes (${what}) put back: a JSON parser removed them before the check (spec 6.3.4); verify over the raw body, before any parsing`,
            },
      );
    }
  }
  return out;
}

function bySpecOrder(a: string, b: string): number {
  const ia = SPEC_ORDER.indexOf(a);
  const ib = SPEC_ORDER.indexOf(b);
  return (ia < 0 ? SPEC_ORDER.length : ia) - (ib < 0 ? SPEC_ORDER.length : ib);
}

function orderKeys(value: unknown, compare: (a: string, b: string) => number): unknown {
  if (Array.isArray(value)) return value.map((v) => orderKeys(v, compare));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => compare(a, b));
    return Object.fromEntries(entries.map(([k, v]) => [k, orderKeys(v, compare)]));
  }
  return value;
}

/** PHP's json_encode and others write "/" as "\/" (inside strings only, where "/" occurs in JSON). */
function escapeSlashes(json: string): string {
  return json.replace(/\//g, '\\/');
}

function escapeNonAscii(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
