// The signature verdict of a delivery: its X-Platform-Signature checked over the raw body
// (signature.ts, with the diagnosis of diagnose.ts when it does not match), made once per
// delivery and carried with it. `webhooks listen` (receiver.ts), its inbox and `webhooks
// verify` all say what it is through the functions here. Secrets are used by name and
// never appear in a verdict.
import { headerValue, type HeaderPairs } from './headers.js';
import {
  mismatchLine,
  parseSignature,
  SIGNATURE_HEADER,
  verify,
  type NamedSecret,
  type ParsedSignature,
  type Verification,
  type VerifyOptions,
} from './signature.js';

/** A signature checked over the body: the HMAC matches or not (`verification` says why not). */
export interface CheckedVerdict {
  kind: 'checked';
  valid: boolean;
  signature: ParsedSignature;
  verification: Verification;
}

export type SignatureVerdict = { kind: 'missing'; valid: false } | { kind: 'malformed'; valid: false; problem: string } | CheckedVerdict;

/** Listen's reason for a delivery whose signature is well formed but not the body's. */
const BODY_MISMATCH = 'the HMAC-SHA256 of the body does not match';

/** The verdict of a delivery's headers (their X-Platform-Signature, as sent) over its raw body. */
export function deliveryVerdict(headers: HeaderPairs, body: Uint8Array, secret: NamedSecret, options: VerifyOptions = {}): SignatureVerdict {
  const header = headerValue(headers, SIGNATURE_HEADER);
  if (header === undefined) return { kind: 'missing', valid: false };
  const parsed = parseSignature(header);
  if (!parsed.ok) return { kind: 'malformed', valid: false, problem: parsed.problem };
  return signatureVerdict(parsed.signature, body, secret, options);
}

/** The verdict of a signature already parsed (`verify` refuses one that does not parse before reading the body). */
export function signatureVerdict(signature: ParsedSignature, body: Uint8Array, secret: NamedSecret, options: VerifyOptions = {}): CheckedVerdict {
  const verification = verify(body, secret, signature, options);
  return { kind: 'checked', valid: verification.valid, signature, verification };
}

/**
 * The verdict in one line, as `verify` prints it and the inbox shows it: "valid signature
 * (HMAC-SHA256 of N bytes, ABOUT)", "invalid signature: ..." with the diagnosis, or what is
 * wrong with the header.
 */
export function verdictLine(v: SignatureVerdict, about?: string): string {
  if (v.kind === 'missing') return `no ${SIGNATURE_HEADER} header`;
  if (v.kind === 'malformed') return `${SIGNATURE_HEADER} ${v.problem}`;
  if (v.valid) return `valid signature (HMAC-SHA256 of ${v.verification.bodyBytes} bytes${about ? `, ${about}` : ''})`;
  return `invalid signature: ${mismatchLine(v.verification, v.signature)}`;
}

/** Why a delivery is invalid, as `listen` records it (`reason`, and the diagnosis as `explanation`); nothing for a valid one. */
export function verdictReason(v: SignatureVerdict): { reason?: string; explanation?: string } {
  if (v.valid) return {};
  if (v.kind !== 'checked') return { reason: verdictLine(v) };
  const explanation = v.verification.diagnosis?.message;
  return { reason: BODY_MISMATCH, ...(explanation ? { explanation } : {}) };
}

/** Why a delivery is invalid, as `listen`'s line says it: the reason, and for a body that does not match, what explains it (else `advice`). */
export function verdictNote(v: SignatureVerdict, advice: string): string | undefined {
  const { reason, explanation } = verdictReason(v);
  if (reason === undefined) return undefined;
  return v.kind === 'checked' ? `${reason}: ${explanation ?? advice}` : reason;
}
