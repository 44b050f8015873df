// A set of ids kept as 64-bit hashes in typed arrays, each with a count: the current-state
// reader (current.ts) remembers every id it handed out, to tell an id asked for again, and
// the validation pass counts each row's identity (row-identity.ts). Kept as strings in a Map
// they were most of the live heap of a 1,000,000-row dry run; numbers in a Set cost a heap
// number each. A collision only makes `has` say yes for an id not added: the reader then
// reads that row's resource afresh, which is never wrong.

/** Slots are pairs of 32-bit halves; (0, 0) marks an empty slot (a hash of 0 is stored as 1). */
export class IdMarks {
  #high = new Int32Array(1024);
  #low = new Int32Array(1024);
  /** How many times each slot's id was counted (`count`). */
  #times = new Int32Array(1024);
  #count = 0;
  /** The two halves of the last id hashed (fields, not a tuple: no allocation per id). */
  #hashHigh = 0;
  #hashLow = 0;

  add(id: string): void {
    this.#slotOf(id);
  }

  /** Adds the id and returns how many times it has been counted, this time included. */
  count(id: string): number {
    const slot = this.#slotOf(id); // (first: it may grow the table)
    return ++this.#times[slot]!;
  }

  /** The slot of the id, added if it was not. */
  #slotOf(id: string): number {
    this.#hash(id);
    const high = this.#hashHigh;
    const low = this.#hashLow;
    const found = this.#find(high, low);
    if (found >= 0) return found;
    if ((this.#count + 1) * 2 > this.#high.length) this.#grow();
    this.#count++;
    return this.#place(high, low, 0);
  }

  has(id: string): boolean {
    this.#hash(id);
    return this.#find(this.#hashHigh, this.#hashLow) >= 0;
  }

  /** Two independent 32-bit FNV-1a-style hashes of the id's characters. */
  #hash(id: string): void {
    let high = 0x811c9dc5 | 0;
    let low = 0x2c927734;
    for (let i = 0; i < id.length; i++) {
      const code = id.charCodeAt(i);
      high = Math.imul(high ^ code, 0x01000193);
      low = Math.imul(low ^ code, 0x5bd1e995);
    }
    low ^= low >>> 15;
    this.#hashHigh = high;
    this.#hashLow = high === 0 && low === 0 ? 1 : low;
  }

  #find(high: number, low: number): number {
    const mask = this.#high.length - 1;
    for (let slot = low & mask; ; slot = (slot + 1) & mask) {
      const h = this.#high[slot]!;
      const l = this.#low[slot]!;
      if (h === high && l === low) return slot;
      if (h === 0 && l === 0) return -1;
    }
  }

  #place(high: number, low: number, times: number): number {
    const mask = this.#high.length - 1;
    let slot = low & mask;
    while (this.#high[slot] !== 0 || this.#low[slot] !== 0) slot = (slot + 1) & mask;
    this.#high[slot] = high;
    this.#low[slot] = low;
    this.#times[slot] = times;
    return slot;
  }

  #grow(): void {
    const high = this.#high;
    const low = this.#low;
    const times = this.#times;
    this.#high = new Int32Array(high.length * 2);
    this.#low = new Int32Array(low.length * 2);
    this.#times = new Int32Array(low.length * 2);
    for (let slot = 0; slot < high.length; slot++) if (high[slot] !== 0 || low[slot] !== 0) this.#place(high[slot]!, low[slot]!, times[slot]!);
  }
}
