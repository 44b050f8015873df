// X-Platform-Signature (spec 6.3): the hexadecimal HMAC-SHA256 of the raw request body,
// keyed by the secret. Verification compares in constant time and, when the signature does
// not match, looks for the usual reasons so `platform webhooks verify` can name them.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function sign(body: Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export type Verdict =
  | { valid: true }
  | { valid: false; reason: string };

/** A signature as sent: 64 hex digits, any case, optionally `sha256=`-prefixed. Undefined when malformed. */
export function parseSignature(text: string): Buffer | undefined {
  const hex = text.trim().replace(/^sha256=/i, '');
  return /^[0-9a-f]{64}$/i.test(hex) ? Buffer.from(hex, 'hex') : undefined;
}

function matches(body: Uint8Array, secret: string, expected: Buffer): boolean {
  return timingSafeEqual(Buffer.from(sign(body, secret), 'hex'), expected);
}

/** Checks `signature` (already parsed) over the exact bytes of `body`. */
export function verify(body: Uint8Array, secret: string, signature: Buffer): Verdict {
  if (matches(body, secret, signature)) return { valid: true };
  const computed = sign(body, secret);
  const got = signature.toString('hex');
  const base = `the HMAC-SHA256 of the ${body.byteLength} bytes received is ${computed.slice(0, 8)}..., the signature is ${got.slice(0, 8)}...`;
  return { valid: false, reason: `${base}; ${diagnose(body, secret, signature) ?? 'wrong secret, or the body is not the one that was signed'}` };
}

/** Tries the changes that commonly happen to a body between the sender and the check. */
function diagnose(body: Uint8Array, secret: string, signature: Buffer): string | undefined {
  const text = Buffer.from(body).toString('utf8');
  const trimmed = text.replace(/\r?\n$/, '');
  if (trimmed !== text && matches(Buffer.from(trimmed), secret, signature)) {
    return 'it matches the body without its final newline: the body was saved with a newline added (an editor or `echo` does this); sign and verify the exact bytes';
  }
  let reencoded: string | undefined;
  try {
    reencoded = JSON.stringify(JSON.parse(text));
  } catch {
    return undefined;
  }
  if (reencoded !== text && matches(Buffer.from(reencoded), secret, signature)) {
    return 'it matches the body re-encoded from parsed JSON: verify over the raw body as received, not a re-serialized one';
  }
  return undefined;
}
