import type { ProfileTokenSource } from '../auth/token-source.js';
import { AdsApi } from './ads.js';
import type { HttpCore } from './http.js';

/** Everything a command may call, for one profile. */
export class ApiClient {
  readonly ads: AdsApi;

  constructor(readonly http: HttpCore, readonly profile: string, readonly tokens: ProfileTokenSource) {
    this.ads = new AdsApi(http);
  }
}
