// The verification verdict the inbox keeps and shows for a delivery: the one the receiver
// made of it (../verdict.ts), in the words `platform webhooks verify` uses. Secrets are
// named, never kept.
import { verdictLine, type SignatureVerdict } from '../verdict.js';

export interface InboxVerdict {
  valid: boolean;
  /** One line: "valid signature (...)" or why not, as `verify` prints it. */
  message: string;
  /** The stable name of the mistake that explains a mismatch (diagnose.ts), when one does. */
  diagnosis: string | null;
  notes: string[];
}

/** `secretName`: the secret the verdict was made with. */
export function inboxVerdict(v: SignatureVerdict, secretName: string): InboxVerdict {
  if (v.kind !== 'checked') return { valid: false, message: verdictLine(v), diagnosis: null, notes: [] };
  return { valid: v.valid, message: verdictLine(v, secretName), diagnosis: v.verification.diagnosis?.case ?? null, notes: v.verification.notes };
}
