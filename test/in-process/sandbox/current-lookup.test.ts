// The lookups a patch is merged with, over the real HTTP core against a sandbox whose
// account holds more campaigns than the reader keeps ahead: in list order, in reverse
// order, with an id asked twice and one that does not exist, every lookup gets exactly the
// campaign a per-id read returns (only the fields a patch can name), and no page is read twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdsApi } from '../../../src/api/ads.js';
import { CAMPAIGNS } from '../../../src/api/ads-resources.js';
import { currentLookup } from '../../../src/bulk/changes/current.js';
import type { HttpCore } from '../../../src/http/core.js';
import type { Dispatcher } from '../../../src/http/transport.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { api, getToken, httpCoreFor } from '../../helpers/sandbox.js';
import { scaled } from '../../helpers/time-scale.js';

const COUNT = 12_500;
let sandbox: Sandbox;
let dispatcher: Dispatcher;
let ads: AdsApi;
let account: string;
let ids: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, campaigns: COUNT });
  const token = await getToken(sandbox.url);
  account = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
  let http: HttpCore;
  ({ http, dispatcher } = await httpCoreFor(sandbox.url, token));
  ads = new AdsApi(http);
  ids = [];
  let pageToken: string | undefined;
  do {
    const page = await ads.list<Record<string, unknown>>(CAMPAIGNS, { account }, { pageToken, pageLimit: 2000 });
    ids.push(...page.items.map((c) => String(c.campaign_id)));
    pageToken = page.nextPageToken;
  } while (pageToken);
}, scaled(60_000));
afterAll(async () => {
  await sandbox.close();
  await dispatcher.close();
});

const patchable = (c: Record<string, unknown>) => ({ campaign_id: c.campaign_id, name: c.name, configured_status: c.configured_status, budget: c.budget });

describe('currentLookup over a whole collection', () => {
  it.each([
    ['list order', (all: string[]) => all],
    ['reverse order', (all: string[]) => [...all].reverse()],
  ])('finds every id in %s, reading each page once', async (_name, order) => {
    expect(ids).toHaveLength(COUNT);
    const lookup = currentLookup(ads, CAMPAIGNS, { account }, COUNT);
    const before = sandbox.stats.requests.length;
    const wanted = order(ids);
    const found = new Map<string, Record<string, unknown>>();
    for (let at = 0; at < wanted.length; at += 200) {
      for (const [id, campaign] of await lookup(wanted.slice(at, at + 200), undefined)) found.set(id, campaign);
    }
    expect(found.size).toBe(COUNT);
    const pages = sandbox.stats.requests.slice(before).filter((r) => r.method === 'GET');
    expect(pages).toHaveLength(Math.ceil(COUNT / 2000));
    for (const id of [wanted[0]!, wanted[6_000]!, wanted.at(-1)!]) {
      const direct = (await ads.findByIds(CAMPAIGNS, { account }, [id])).get(id)!;
      expect(found.get(id)).toEqual(patchable(direct));
    }
  });

  it('reads an id asked for again afresh (by id for a few, a new pass for many), and leaves out ids that do not exist', async () => {
    const lookup = currentLookup(ads, CAMPAIGNS, { account }, COUNT);
    const first = await lookup([ids[5]!, '00000000-0000-4000-8000-000000000000'], undefined);
    expect([...first.keys()]).toEqual([ids[5]]);
    const gets = () => sandbox.stats.requests.filter((r) => r.method === 'GET').length;
    let before = gets();
    const again = await lookup([ids[5]!], undefined);
    expect(again.get(ids[5]!)).toMatchObject({ campaign_id: ids[5] });
    expect(gets() - before).toBe(1);
    // The input goes over the list again: one new pass, page by page, not a request per id.
    for (let at = 0; at < 4000; at += 200) await lookup(ids.slice(at, at + 200), undefined);
    before = gets();
    for (let at = 0; at < 4000; at += 200) expect((await lookup(ids.slice(at, at + 200), undefined)).size).toBe(200);
    expect(gets() - before).toBeLessThanOrEqual(Math.ceil(COUNT / 2000));
  });
});
