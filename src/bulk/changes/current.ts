// The current resources a patch is merged with and checked against (merge.ts) and a dry
// run compares with: for one row, a request for its id; for a few, each collection's first
// page (all of a small account's), and a request per id for those not on it; for more, each
// collection (the account's campaigns, a campaign's ad groups) read once, page by page, in
// the background, each lookup waiting only until the pages read so far hold its ids. A list edited and fed
// back (`list | ... | patch`) comes in the order the pages do, so reads and writes overlap
// and only the pages ahead of the rows are held.
import { setMaxListeners } from 'node:events';
import type { AdsApi } from '../../api/ads.js';
import type { AdsResource, AdsScope } from '../../api/ads-resources.js';
import { walkPages, type Page } from '../../api/paginate.js';
import { MAX_PAGE_LIMIT } from '../../schemas/limits.js';
import { ApiError } from '../../base/errors.js';
import type { RetryPolicy } from '../../http/retry.js';
import { itemSchema } from '../resource-schemas.js';
import { IdMarks } from '../id-marks.js';

type Json = Record<string, unknown>;

/** Current resources by id, for the ids of one campaign (or the account); ids not found are absent. */
export type CurrentLookup = (ids: string[], campaignId: string | undefined) => Promise<Map<string, Json>>;

/** Rows past which reading whole collections (pages of 2000) takes fewer requests than one per id past the first page. */
const LIST_WHOLE_ABOVE = 50;

/** `retry`: the run's policy for these reads (a bulk run's failed read ends it, so it gets the batches' attempts). */
export function currentLookup(api: AdsApi, resource: AdsResource, scope: AdsScope, rows: number, retry?: RetryPolicy): CurrentLookup {
  const collections = new Map<string, CollectionReader>();
  // Reads under way finish after Ctrl-C (like batches in flight); the merge starts no new ones.
  // Up to 8 id look-ups and their back-off sleeps listen to it at once.
  const reading = new AbortController().signal;
  setMaxListeners(64, reading);
  // Held: only the fields a patch can name (and ad_product, which a row may name but not
  // change, and subjects, the response's ad_subjects), not timestamps or permissions.
  const shape = (itemSchema(resource, 'patch') as { shape?: Json }).shape;
  const kept = shape ? [...Object.keys(shape), 'ad_product', 'subjects'] : undefined;
  const compact = (item: Json): Json => {
    if (!kept) return item;
    const fields: Json = {};
    for (const key of kept) if (item[key] !== undefined) fields[key] = item[key];
    return fields;
  };
  const newReader = (key: string, at: AdsScope) => {
    // Each page compacted as it comes: the page as parsed (ad groups, permissions, times:
    // several times the fields kept) then dies young, instead of being held (and copied by
    // every minor GC, then promoted) while its items wait to be taken and the next page is read.
    const compactPage = (page: Page<Json>): Page<Json> => ({ ...page, items: page.items.map(compact) });
    const items = walkPages((query) => api.list<Json>(resource, at, query, reading, retry).then(compactPage), { all: true });
    const reader = new CollectionReader(items, (item) => String(item[resource.idField]));
    collections.set(key, reader);
    return reader;
  };
  const firstPages = new Map<string, Promise<FirstPage>>();
  const firstPage = (key: string, at: AdsScope) => {
    let page = firstPages.get(key);
    if (!page) {
      page = api.list<Json>(resource, at, { pageLimit: MAX_PAGE_LIMIT }, reading, retry).then((first) => ({
        items: new Map(first.items.map((item) => [String(item[resource.idField]), compact(item)])),
        whole: first.nextPageToken === undefined,
        taken: new Set<string>(),
      }));
      firstPages.set(key, page);
    }
    return page;
  };
  return async (ids, campaign) => {
    const at = { ...scope, campaign: campaign ?? scope.campaign };
    try {
      const key = at.campaign ?? '';
      if (rows === 1) return await api.findByIds(resource, at, ids, reading, retry);
      if (rows <= LIST_WHOLE_ABOVE) return await fromFirstPage(await firstPage(key, at), ids, (rest) => api.findByIds(resource, at, rest, reading, retry));
      const { found, again } = await (collections.get(key) ?? newReader(key, at)).take(ids);
      if (again.length === 0) return found;
      // Ids of earlier rows too: a few are read one by one; many (the input goes over the
      // list again) start a new pass over the collection, which later rows then use.
      const more = again.length <= FEW_AGAIN ? await api.findByIds(resource, at, again, reading, retry) : (await newReader(key, at).take(again)).found;
      for (const [id, item] of more) found.set(id, item);
      return found;
    } catch (error) {
      // An unknown parent: none of its ids exist.
      if (error instanceof ApiError && error.status === 404) return new Map();
      throw error;
    }
  };
}

/** The first page of a collection, by id; `whole`: the collection has no more pages. */
interface FirstPage {
  items: Map<string, Json>;
  whole: boolean;
  /** Ids already taken from it. */
  taken: Set<string>;
}

/**
 * A few rows' resources: from the collection's first page, which holds all of a small
 * account's (one request for every row, where one per id would spend the rate limit on each);
 * the rest, and an id asked for again (its row may have changed it since), one by one.
 */
async function fromFirstPage(first: FirstPage, ids: string[], readEach: (ids: string[]) => Promise<Map<string, Json>>): Promise<Map<string, Json>> {
  const found = new Map<string, Json>();
  const rest: string[] = [];
  for (const id of ids) {
    const item = first.items.get(id);
    // (taken once: a later look-up of the id reads it afresh)
    if (item) {
      found.set(id, item);
      first.items.delete(id);
      first.taken.add(id);
    } else if (!found.has(id) && (!first.whole || first.taken.has(id))) rest.push(id);
  }
  if (rest.length) for (const [id, item] of await readEach(rest)) found.set(id, item);
  return found;
}

/** Ids taken before, in one look-up, past which a new pass over the collection is cheaper than reading each. */
const FEW_AGAIN = 20;

/** Items read ahead of the lookups while none waits: pages enough to keep writes busy, not the whole account. */
const READ_AHEAD = 2_000;

/**
 * Items read in the background, each let go once taken, so memory holds only what is read
 * ahead of the lookups; an id asked for again is reported, for the caller to read afresh.
 */
class CollectionReader {
  /** Items read and not taken yet, by id. */
  readonly #items = new Map<string, Json>();
  /** Every id taken, as a hash (id-marks.ts): enough to tell an id asked for again. */
  readonly #taken = new IdMarks();
  /** Items read and not taken yet. */
  #ahead = 0;
  #done = false;
  #error: Error | undefined;
  /** Lookups waiting for more pages. */
  #wake: Array<() => void> = [];
  /** The reader, paused with enough read ahead. */
  #resume: (() => void) | undefined;

  constructor(items: AsyncIterable<Json>, idOf: (item: Json) => string) {
    void this.#read(items, idOf);
  }

  async #read(items: AsyncIterable<Json>, idOf: (item: Json) => string): Promise<void> {
    try {
      let count = 0;
      for await (const item of items) {
        const id = idOf(item);
        if (!this.#items.has(id)) this.#ahead++; // (an id read again after it was taken is ahead again)
        this.#items.set(id, item);
        if (++count % 500 !== 0) continue;
        this.#notify();
        // A lookup waiting for an id not read yet always gets more pages (the input may be in any order).
        while (this.#ahead >= READ_AHEAD && this.#wake.length === 0) await new Promise<void>((resolve) => (this.#resume = resolve));
      }
    } catch (error) {
      this.#error = error as Error;
    } finally {
      this.#done = true;
      this.#notify();
    }
  }

  #notify(): void {
    for (const wake of this.#wake.splice(0)) wake();
  }

  /** The items of these ids, once the pages holding them are read (ids not found are absent); `again`: ids taken before. */
  async take(ids: string[]): Promise<{ found: Map<string, Json>; again: string[] }> {
    // The ids before `known` are read (or taken) already: each wake checks only the rest.
    let known = 0;
    for (;;) {
      while (known < ids.length && (this.#items.has(ids[known]!) || this.#taken.has(ids[known]!))) known++;
      if (known === ids.length || this.#done) break;
      const more = new Promise<void>((resolve) => this.#wake.push(resolve));
      this.#resumeReading();
      await more;
    }
    if (this.#error !== undefined) throw this.#error;
    const found = new Map<string, Json>();
    const again = new Set<string>();
    for (const id of ids) {
      const item = this.#items.get(id);
      if (item) {
        found.set(id, item);
        this.#items.delete(id);
        this.#taken.add(id);
        this.#ahead--;
      } else if (!found.has(id) && this.#taken.has(id)) {
        again.add(id);
      }
    }
    this.#resumeReading();
    return { found, again: [...again] };
  }

  #resumeReading(): void {
    const resume = this.#resume;
    this.#resume = undefined;
    resume?.();
  }
}
