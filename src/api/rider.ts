// Typed client for the rider API v1.2 (spec 4.4). Builds paths and bodies, never prints.
// Products and price estimates may go with a server token (`Authorization: Token`, spec
// 5.9) instead of the profile's bearer token.
import { pathSegment } from '../http/path-segment.js';
import type { LoginNeed } from '../base/errors.js';
import type { HttpCore, HttpRequest } from '../http/core.js';
import { riderErrorFor, type RiderAction } from './rider-errors.js';
import type { UserProfile } from '../schemas/user-profile.js';
import type {
  AppliedPromotion,
  CreateRequestBody,
  History,
  Place,
  PlaceId,
  PriceEstimate,
  Product,
  Receipt,
  RequestEstimate,
  RequestEstimateBody,
  RideMap,
  RideRequest,
  TimeEstimate,
  UpdateRequestBody,
} from '../schemas/rider.js';

export interface LatLng {
  latitude: number;
  longitude: number;
}

export interface CatalogOptions {
  /** Accept-Language, e.g. "fr-FR" (names and descriptions are localized). */
  language?: string;
  /** Send this server token instead of the profile's bearer token. */
  serverToken?: string;
}

const seg = (id: string) => pathSegment(id, 'the id');

/** Paths of the rider API, served from the profile's rider_url: /v1.2/... and the deprecated POST /v1/requests/estimate. */
export function isRiderApiPath(path: string): boolean {
  return path === '/v1.2' || path.startsWith('/v1.2/') || path === '/v1/requests/estimate';
}

export class RiderApi {
  constructor(
    private readonly http: HttpCore,
    private readonly need: () => LoginNeed,
  ) {}

  async products(at: LatLng, options: CatalogOptions = {}): Promise<Product[]> {
    const body = await this.#send<{ products: Product[] }>(
      { method: 'GET', path: '/v1.2/products', query: { latitude: at.latitude, longitude: at.longitude } },
      options,
    );
    return body.products ?? [];
  }

  product(id: string, options: CatalogOptions = {}): Promise<Product> {
    return this.#send<Product>({ method: 'GET', path: `/v1.2/products/${seg(id)}` }, options);
  }

  async priceEstimates(from: LatLng, to: LatLng, seats: number | undefined, options: CatalogOptions = {}): Promise<PriceEstimate[]> {
    const query = { start_latitude: from.latitude, start_longitude: from.longitude, end_latitude: to.latitude, end_longitude: to.longitude, seat_count: seats };
    const body = await this.#send<{ prices: PriceEstimate[] }>({ method: 'GET', path: '/v1.2/estimates/price', query }, options);
    return body.prices ?? [];
  }

  /** Time estimates need a user token (spec 4.4): no server token here. */
  async timeEstimates(from: LatLng, productId: string | undefined, options: Omit<CatalogOptions, 'serverToken'> = {}): Promise<TimeEstimate[]> {
    const query = { start_latitude: from.latitude, start_longitude: from.longitude, product_id: productId };
    const body = await this.#send<{ times: TimeEstimate[] }>({ method: 'GET', path: '/v1.2/estimates/time', query }, options);
    return body.times ?? [];
  }

  me(): Promise<UserProfile> {
    return this.#send<UserProfile>({ method: 'GET', path: '/v1.2/me' });
  }

  applyPromotion(code: string): Promise<AppliedPromotion> {
    return this.#send<AppliedPromotion>({ method: 'PATCH', path: '/v1.2/me', json: { applied_promotion_codes: code } });
  }

  estimateRequest(body: RequestEstimateBody): Promise<RequestEstimate> {
    return this.#send<RequestEstimate>({ method: 'POST', path: '/v1.2/requests/estimate', json: body });
  }

  /** 202 with status processing; throws RiderApiError with `surge` on a 409 surge. */
  createRequest(body: CreateRequestBody): Promise<RideRequest> {
    return this.#send<RideRequest>({ method: 'POST', path: '/v1.2/requests', json: body });
  }

  /** A new destination (coordinates or a saved place); the API answers 204. */
  async updateRequest(id: string, body: UpdateRequestBody): Promise<void> {
    await this.#send({ method: 'PATCH', path: `/v1.2/requests/${seg(id)}`, json: body }, { action: 'update' });
  }

  rideMap(id: string): Promise<RideMap> {
    return this.#send<RideMap>({ method: 'GET', path: `/v1.2/requests/${seg(id)}/map` });
  }

  place(id: PlaceId): Promise<Place> {
    return this.#send<Place>({ method: 'GET', path: `/v1.2/places/${seg(id)}` });
  }

  setPlace(id: PlaceId, address: string): Promise<Place> {
    return this.#send<Place>({ method: 'PUT', path: `/v1.2/places/${seg(id)}`, json: { address } });
  }

  request(id: string): Promise<RideRequest> {
    return this.#send<RideRequest>({ method: 'GET', path: `/v1.2/requests/${seg(id)}` });
  }

  currentRequest(): Promise<RideRequest> {
    return this.#send<RideRequest>({ method: 'GET', path: '/v1.2/requests/current' });
  }

  async cancelRequest(id: string): Promise<void> {
    await this.#send({ method: 'DELETE', path: `/v1.2/requests/${seg(id)}` }, { action: 'cancel' });
  }

  receipt(id: string): Promise<Receipt> {
    return this.#send<Receipt>({ method: 'GET', path: `/v1.2/requests/${seg(id)}/receipts` });
  }

  history(query: { limit?: number; offset?: number }): Promise<History> {
    return this.#send<History>({ method: 'GET', path: '/v1.2/history', query });
  }

  async #send<T>(req: HttpRequest, options: CatalogOptions & { action?: RiderAction } = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (options.language) headers['accept-language'] = options.language;
    if (options.serverToken) headers.authorization = `Token ${options.serverToken}`;
    const response = await this.http.sendRaw({ ...req, headers, auth: options.serverToken ? false : req.auth });
    if (response.status >= 200 && response.status < 300) return response.body as T;
    throw riderErrorFor(response, { ...this.need(), serverToken: Boolean(options.serverToken) }, options.action);
  }
}
