// How a plan (plan.ts) cannot be edited in silence. Every line of a plan ends with its seal, a
// last member `"sha256":"<64 hex>"`; a line's content is the line as written without that
// member (`{...,"sha256":"…"}` -> `{...}`). The header's seal is the SHA-256 of its content. The
// rows' seals are a chain: c0 = SHA-256(the plan's id), and row i's seal is
// ci = SHA-256(c(i-1) + "\n" + row i's content), in the plan's order; the header's `rows_sha256`
// is the last row's (c0 for a plan without rows). An edited row, or one removed, added or
// moved, breaks the chain at its line, which apply names; an edited header breaks its own seal.
// (Seals find edits made by hand or by a tool that does not know them; they are not signatures.)
import { createHash } from 'node:crypto';

const SEAL = /,"sha256":"([0-9a-f]{64})"\}$/;

/** The SHA-256 of a text (UTF-8), in hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The JSON text of a record (`{...}`, one member or more) with its seal as the last member. */
export function withSeal(json: string, seal: string): string {
  return `${json.slice(0, -1)},"sha256":"${seal}"}`;
}

/** A line's content and seal; undefined when it does not end with one. */
export function unseal(line: string): { content: string; seal: string } | undefined {
  const match = SEAL.exec(line);
  return match ? { content: `${line.slice(0, match.index)}}`, seal: match[1]! } : undefined;
}

/** The first link of a plan's chain of rows. */
export function chainStart(planId: string): string {
  return sha256Hex(planId);
}

/** The seal of a row whose content is `content`, after the row (or start) sealed `previous`. */
export function chainNext(previous: string, content: string): string {
  return sha256Hex(`${previous}\n${content}`);
}
