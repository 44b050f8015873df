import type { ProfileTokenSource } from '../auth/token-source.js';
import { AdsApi } from './ads.js';
import { DeliveryApi } from './delivery.js';
import type { HttpCore } from './http.js';
import { RiderApi } from './rider.js';

/** Everything a command may call, for one profile. */
export class ApiClient {
  readonly ads: AdsApi;
  readonly rider: RiderApi;
  readonly delivery: DeliveryApi;

  constructor(readonly http: HttpCore, readonly profile: string, readonly tokens: ProfileTokenSource) {
    this.ads = new AdsApi(http);
    this.rider = new RiderApi(http, () => tokens.loginHint);
    this.delivery = new DeliveryApi(http, () => tokens.loginHint);
  }
}
