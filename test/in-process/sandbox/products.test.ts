// Sandbox product catalog over HTTP: the OpenAPI shape, paging like the other lists, a
// stable catalog per account, the ads.products.read scope and 404s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { Product } from '../../../src/schemas/report-requests.js';
import { gtinCheckDigit, PRODUCTS_PER_ACCOUNT } from '../../../src/sandbox/products.js';
import { api, getToken, listAll } from '../../helpers/sandbox.js';

let sandbox: Sandbox;
let token: string;
let accounts: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  token = await getToken(sandbox.url);
  accounts = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts.map((a: { ad_account_id: string }) => a.ad_account_id);
});
afterAll(() => sandbox.close());

describe('GET /v1/ads/{account_id}/products', () => {
  it('pages the whole catalog: OpenAPI fields, unique GTIN-13s with valid check digits', async () => {
    const all = await listAll(sandbox.url, token, `/v1/ads/${accounts[0]}/products`, 'products', 70);
    expect(all).toHaveLength(PRODUCTS_PER_ACCOUNT);
    for (const p of all) {
      expect(Object.keys(Product.strict().parse(p)).sort()).toEqual(['brand_name', 'brand_owner_name', 'gtin', 'main_image_url', 'product_name', 'size']);
      expect(p.gtin).toMatch(/^\d{13}$/);
      expect(Number(p.gtin[12])).toBe(gtinCheckDigit(p.gtin.slice(0, 12)));
      expect(p.product_name.startsWith(p.brand_name)).toBe(true);
    }
    expect(new Set(all.map((p) => p.gtin)).size).toBe(all.length);
  });

  it('default page is 50 with next_page_token {value}; the last page has none; the catalog differs per account and is stable', async () => {
    const first = await api(sandbox.url, token, 'GET', `/v1/ads/${accounts[0]}/products`);
    expect(first.body.products).toHaveLength(50);
    expect(first.body.next_page_token).toEqual({ value: expect.any(String) });
    const last = await api(sandbox.url, token, 'GET', `/v1/ads/${accounts[0]}/products?page_limit=2000`);
    expect(last.body.products).toHaveLength(PRODUCTS_PER_ACCOUNT);
    expect(last.body.next_page_token).toBeUndefined();
    const other = await api(sandbox.url, token, 'GET', `/v1/ads/${accounts[1]}/products`);
    expect(other.body.products[0].gtin).not.toBe(first.body.products[0].gtin);
    const again = await startSandbox({ port: 0 });
    try {
      const t = await getToken(again.url);
      expect((await api(again.url, t, 'GET', `/v1/ads/${accounts[0]}/products`)).body).toEqual(first.body);
    } finally {
      await again.close();
    }
  });

  it('400 for a bad page_limit or a page token of another list', async () => {
    const big = await api(sandbox.url, token, 'GET', `/v1/ads/${accounts[0]}/products?page_limit=2001`);
    expect(big).toMatchObject({ status: 400, body: { code: 'BadRequest', message: 'page_limit must be an integer from 1 to 2000' } });
    const page = await api(sandbox.url, token, 'GET', `/v1/ads/${accounts[0]}/products?page_limit=10`);
    const foreign = await api(sandbox.url, token, 'GET', `/v1/ads/${accounts[1]}/products?page_token=${page.body.next_page_token.value}`);
    expect(foreign).toMatchObject({ status: 400, body: { message: 'page_token belongs to a different list or filter' } });
  });

  it('403 without ads.products.read; 404 for an unknown account', async () => {
    const t = await getToken(sandbox.url, { scope: 'ads.campaigns.read ads.reporting' });
    expect(await api(sandbox.url, t, 'GET', `/v1/ads/${accounts[0]}/products`)).toMatchObject({
      status: 403,
      body: { code: 'PermissionDenied', message: 'the token lacks scope ads.products.read' },
    });
    expect(await api(sandbox.url, token, 'GET', '/v1/ads/nope/products')).toMatchObject({ status: 404, body: { code: 'NotFound' } });
  });
});
