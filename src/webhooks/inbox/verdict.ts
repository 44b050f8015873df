// The verification verdict the inbox shows for a delivery: the same check and diagnosis
// `platform webhooks verify` gives (signature.ts, diagnose.ts), over the raw body and the
// X-Platform-Signature header as received. Secrets are used by name and never returned.
import { mismatchLine, parseSignature, SIGNATURE_HEADER, verify, type NamedSecret } from '../signature.js';

export interface InboxVerdict {
  valid: boolean;
  /** One line: "valid signature (...)" or why not, as `verify` prints it. */
  message: string;
  /** The stable name of the mistake that explains a mismatch (diagnose.ts), when one does. */
  diagnosis: string | null;
  notes: string[];
}

export function verdictOf(headers: ReadonlyArray<readonly [string, string]>, body: Uint8Array, secret: NamedSecret, alternatives: NamedSecret[]): InboxVerdict {
  const header = headers.find(([name]) => name.toLowerCase() === SIGNATURE_HEADER.toLowerCase())?.[1];
  if (header === undefined) return { valid: false, message: `no ${SIGNATURE_HEADER} header`, diagnosis: null, notes: [] };
  const parsed = parseSignature(header);
  if (!parsed.ok) return { valid: false, message: `${SIGNATURE_HEADER} ${parsed.problem}`, diagnosis: null, notes: [] };
  const checked = verify(body, secret, parsed.signature, { alternatives });
  if (checked.valid)
    return { valid: true, message: `valid signature (HMAC-SHA256 of ${checked.bodyBytes} bytes, ${secret.name})`, diagnosis: null, notes: checked.notes };
  return {
    valid: false,
    message: `invalid signature: ${mismatchLine(checked, parsed.signature)}`,
    diagnosis: checked.diagnosis?.case ?? null,
    notes: checked.notes,
  };
}
