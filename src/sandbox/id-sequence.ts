// Ids the sandbox makes, numbered from a seed: the Nth id of a seed is always the same, so a
// fresh sandbox and a reset one give the same ids to the same calls. Two sequences serve it:
// the state's (campaigns, ad groups, ads; saved with the state, so a restore numbers on from
// where its snapshot was) and the run's (report jobs: not part of the state, restarted only by
// a reset). Rides, fares and webhook events keep random ids: receivers drop an event whose ride
// id and status they have seen (spec 6.3.1), so a ride id must not come again for a listener
// that outlives a reset, a restore or a restart.
import { createHash, randomBytes } from 'node:crypto';

export interface IdSequenceData {
  /** Text the ids are derived from (the data seed, or random for state files older than ids). */
  seed: string;
  /** How many ids were made. */
  next: number;
}

export class IdSequence {
  constructor(private data: IdSequenceData) {}

  /** A sequence no other has: for state files saved before ids were numbered. */
  static unseeded(): IdSequence {
    return new IdSequence({ seed: randomBytes(12).toString('hex'), next: 0 });
  }

  /** A version-4-shaped UUID. */
  uuid(): string {
    const h = this.#digest();
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** `prefix` and 24 hex digits (the rider API's ids). */
  hex(prefix: string): string {
    return `${prefix}${this.#digest().slice(0, 24)}`;
  }

  toData(): IdSequenceData {
    return { ...this.data };
  }

  /** Goes back to saved data (a snapshot's, or a reset's start). */
  load(data: IdSequenceData): void {
    this.data = { ...data };
  }

  #digest(): string {
    const n = this.data.next++;
    return createHash('sha256').update(`${this.data.seed}\n${n}`).digest('hex');
  }
}
