// Typed client for the ads product catalog (OpenAPI tag Product Catalog), paged like the
// other ads lists.
import { pathSegment } from '../http/path-segment.js';
import type { HttpCore } from '../http/core.js';
import type { Page, PageQuery } from './paginate.js';
import type { Product } from '../schemas/report-requests.js';

export class ProductsApi {
  constructor(private readonly http: HttpCore) {}

  /** GET /v1/ads/{account_id}/products: one page (page_limit at most 2000). */
  async listProducts(accountId: string, query: PageQuery = {}): Promise<Page<Product>> {
    const res = await this.http.send<{ products?: Product[]; next_page_token?: { value?: string } }>({
      method: 'GET',
      path: `/v1/ads/${pathSegment(accountId, 'account id')}/products`,
      query: { page_token: query.pageToken, page_limit: query.pageLimit },
    });
    return { items: res.body.products ?? [], nextPageToken: res.body.next_page_token?.value || undefined };
  }
}
