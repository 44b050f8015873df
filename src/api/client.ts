import type { ProfileTokenSource } from '../auth/token-source.js';
import type { HttpCore } from '../http/core.js';
import type { Downloader } from '../http/download.js';
import { AdsApi } from './ads.js';
import { DeliveryApi } from './delivery.js';
import { ProductsApi } from './products.js';
import { ReportsApi } from './reports.js';
import { RiderApi } from './rider.js';

/** The HTTP cores of a profile's three hosts (README, Credentials). */
export interface ClientHosts {
  /** base_url: the ads and delivery APIs, and `platform api`. */
  ads: HttpCore;
  /** auth_url: the token and authorize endpoints; never sends a bearer token. */
  auth: HttpCore;
  /** rider_url: the rider API. */
  rider: HttpCore;
  /** Report files: pre-signed URLs on another origin, fetched without credentials. */
  downloads: Downloader;
  profile: string;
  tokens: ProfileTokenSource;
}

/** Everything a command may call, for one profile. */
export class ApiClient {
  readonly http: HttpCore;
  readonly authHttp: HttpCore;
  readonly riderHttp: HttpCore;
  readonly profile: string;
  readonly tokens: ProfileTokenSource;
  readonly ads: AdsApi;
  readonly rider: RiderApi;
  readonly delivery: DeliveryApi;
  readonly reports: ReportsApi;
  readonly products: ProductsApi;
  readonly downloads: Downloader;

  constructor(hosts: ClientHosts) {
    this.http = hosts.ads;
    this.authHttp = hosts.auth;
    this.riderHttp = hosts.rider;
    this.profile = hosts.profile;
    this.tokens = hosts.tokens;
    this.ads = new AdsApi(hosts.ads);
    this.rider = new RiderApi(hosts.rider, () => hosts.tokens.need);
    this.delivery = new DeliveryApi(hosts.ads, () => hosts.tokens.need);
    this.reports = new ReportsApi(hosts.ads);
    this.products = new ProductsApi(hosts.ads);
    this.downloads = hosts.downloads;
  }
}
