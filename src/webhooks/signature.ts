// X-Platform-Signature (spec 6.3.2): the hexadecimal HMAC-SHA256 of the raw request body,
// keyed by the client secret. Verification compares in constant time and, when the signature
// does not match, looks for the usual reasons (diagnose.ts) so `platform webhooks verify`
// can name them. Nothing here ever returns or prints a secret.
import { diagnose, type Diagnosis, type NamedSecret } from './diagnose.js';
import { matches, sign } from './hmac.js';

export { matches, sign };
export type { Diagnosis, NamedSecret };

export const SIGNATURE_HEADER = 'X-Platform-Signature';
export const ENVIRONMENT_HEADER = 'X-Environment';

/** Ways a header value differs from the 64 lowercase hex digits the platform sends. */
export type SignatureQuirk = 'whitespace' | 'uppercase' | 'prefix';

export interface ParsedSignature {
  /** The 32 bytes of the HMAC. */
  bytes: Buffer;
  /** The value exactly as given. */
  raw: string;
  quirks: SignatureQuirk[];
}

export type SignatureParse = { ok: true; signature: ParsedSignature } | { ok: false; problem: string };

const QUIRK_NOTES: Record<SignatureQuirk, string> = {
  whitespace: 'the signature has whitespace around it; the HMAC matches once it is trimmed, so a receiver comparing the untrimmed header value would reject it',
  uppercase:
    'the signature is uppercase hex; the HMAC matches case-insensitively, but the platform sends lowercase, so a receiver comparing strings would reject it',
  prefix: 'the signature has a sha256= prefix; the platform sends the bare hex digits',
};

/**
 * A signature as it may be given: 64 hex digits, tolerating surrounding whitespace, uppercase
 * and a `sha256=` prefix (each noted as a quirk). Anything else is a problem named in one phrase.
 */
export function parseSignature(raw: string): SignatureParse {
  const quirks: SignatureQuirk[] = [];
  let text = raw;
  if (text.trim() !== text) {
    quirks.push('whitespace');
    text = text.trim();
  }
  if (/^sha256=/i.test(text)) {
    quirks.push('prefix');
    text = text.slice('sha256='.length);
  }
  if (text === '') return { ok: false, problem: 'is empty' };
  if (!/^[0-9a-f]*$/i.test(text)) {
    if (/^[A-Za-z0-9+/]{43}=$/.test(text) || /^[A-Za-z0-9_-]{43}$/.test(text)) {
      return { ok: false, problem: `looks like base64 (${text.length} characters): the header carries the HMAC as 64 hexadecimal digits` };
    }
    const bad = [...text].findIndex((c) => !/[0-9a-f]/i.test(c));
    return { ok: false, problem: `is not hexadecimal: ${JSON.stringify(text[bad])} at position ${bad + 1}` };
  }
  if (text.length !== 64) {
    const hint = text.length === 40 ? ' (40 is the length of a SHA-1 HMAC)' : '';
    return { ok: false, problem: `has ${text.length} hexadecimal digits; an HMAC-SHA256 has 64${hint}` };
  }
  if (text !== text.toLowerCase()) quirks.push('uppercase');
  return { ok: true, signature: { bytes: Buffer.from(text, 'hex'), raw, quirks } };
}

export interface Verification {
  valid: boolean;
  /** The HMAC-SHA256 (hex) of the bytes received, keyed by the secret in use. */
  computed: string;
  bodyBytes: number;
  /** Quirks of the header value, noted even when the HMAC matches. */
  notes: string[];
  /** Why it does not match, when one of the usual mistakes explains it. */
  diagnosis?: Diagnosis;
}

export interface VerifyOptions {
  /**
   * Other secrets to try when the signature does not match (e.g. the profile's client
   * secret when PLATFORM_WEBHOOK_SECRET is in use); named, never shown.
   */
  alternatives?: NamedSecret[];
  /** Compare the header value exactly as the platform sends it: 64 lowercase digits, nothing around them. */
  strict?: boolean;
}

/** Checks `signature` over the exact bytes of `body`, keyed by `secret`. */
export function verify(body: Uint8Array, secret: NamedSecret, signature: ParsedSignature, options: VerifyOptions = {}): Verification {
  const computed = sign(body, secret.value);
  const hmacMatches = matches(body, secret.value, signature.bytes);
  const base = { computed, bodyBytes: body.byteLength };
  if (hmacMatches) {
    if (options.strict && signature.quirks.length) {
      const quirk = signature.quirks[0]!;
      return { ...base, valid: false, notes: [], diagnosis: { case: `header-${quirk}`, message: QUIRK_NOTES[quirk] } };
    }
    return { ...base, valid: true, notes: signature.quirks.map((q) => QUIRK_NOTES[q]) };
  }
  return { ...base, valid: false, notes: [], diagnosis: diagnose(body, secret, signature.bytes, options.alternatives ?? []) };
}

/** The one-line reason printed for an invalid signature. */
export function mismatchLine(verification: Verification, signature: ParsedSignature): string {
  const given = signature.bytes.toString('hex');
  const base = `the HMAC-SHA256 of the ${verification.bodyBytes} bytes received is ${verification.computed.slice(0, 8)}..., the signature is ${given.slice(0, 8)}...`;
  return `${base}; ${verification.diagnosis?.message ?? 'wrong secret, or the body is not the one that was signed (none of the usual changes to a body explains it)'}`;
}
