// Copy-on-write containers for the sandbox store, so that a snapshot is a set of references
// (O(collections), not O(records)). A container may be written in place only while it is
// owned by the current generation; a snapshot (save or restore) starts a new generation, so
// the next write to a container it shares copies that one container first, once. Records
// inside containers are never changed in place: a write replaces them.

export class Generation {
  #owned = new WeakSet<object>();

  /** Starts a new generation: every container made so far is shared from now on. */
  next(): void {
    this.#owned = new WeakSet();
  }

  /** Marks a container just made (not reachable from any snapshot) as writable in place. */
  own<T extends object>(container: T): T {
    this.#owned.add(container);
    return container;
  }

  /** `container` if this generation owns it, else an owned copy of it. */
  writable<T extends object>(container: T, copy: (shared: T) => T): T {
    return this.#owned.has(container) ? container : this.own(copy(container));
  }
}

/**
 * A Map that copies its entries before the first write of each generation. `frozen()` gives
 * the entries as they are now, for a snapshot; `adopt()` takes a snapshot's entries back.
 */
export class CowMap<K, V> implements Map<K, V> {
  #map: Map<K, V>;

  constructor(
    private readonly generation: Generation,
    entries: Iterable<readonly [K, V]> = [],
  ) {
    this.#map = generation.own(new Map(entries));
  }

  /** The entries as they are now; later writes to this map never reach them. */
  frozen(): ReadonlyMap<K, V> {
    return this.#map;
  }

  /** Takes over frozen entries (a snapshot's); writes copy them first. */
  adopt(entries: ReadonlyMap<K, V>): void {
    this.#map = entries as Map<K, V>;
  }

  #writable(): Map<K, V> {
    this.#map = this.generation.writable(this.#map, (shared) => new Map(shared));
    return this.#map;
  }

  get size(): number {
    return this.#map.size;
  }
  get(key: K): V | undefined {
    return this.#map.get(key);
  }
  has(key: K): boolean {
    return this.#map.has(key);
  }
  set(key: K, value: V): this {
    this.#writable().set(key, value);
    return this;
  }
  delete(key: K): boolean {
    return this.#map.has(key) && this.#writable().delete(key);
  }
  clear(): void {
    this.#map = this.generation.own(new Map<K, V>());
  }
  forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#map) callback.call(thisArg, value, key, this);
  }
  entries(): MapIterator<[K, V]> {
    return this.#map.entries();
  }
  keys(): MapIterator<K> {
    return this.#map.keys();
  }
  values(): MapIterator<V> {
    return this.#map.values();
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.#map[Symbol.iterator]();
  }
  get [Symbol.toStringTag](): string {
    return 'CowMap';
  }
}
