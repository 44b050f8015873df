// Typed client for the delivery quote (spec 4.3): a client-credentials token with scope
// eats.deliveries. Never prints.
import { pathSegment } from '../http/path-segment.js';
import { ApiError, AuthError, type LoginNeed } from '../base/errors.js';
import type { DeliveryQuote } from '../schemas/rider.js';
import type { HttpCore } from '../http/core.js';
import { authErrorFor } from '../http/auth-errors.js';

/** The delivery API wants its own scope (spec 5.3): a profile of a delivery app. */
const DELIVERY_SCOPES = ['eats.deliveries'];

export class DeliveryApi {
  constructor(
    private readonly http: HttpCore,
    private readonly need: () => LoginNeed,
  ) {}

  async quote(customerId: string, pickupAddress: string, dropoffAddress: string): Promise<DeliveryQuote> {
    try {
      const res = await this.http.send<DeliveryQuote>({
        method: 'POST',
        path: `/v1/customers/${pathSegment(customerId, 'the customer id')}/delivery_quotes`,
        json: { pickup_address: pickupAddress, dropoff_address: dropoffAddress },
      });
      return res.body;
    } catch (error) {
      if (error instanceof AuthError && error.need?.scopes) throw new AuthError(error.message, { ...error.need, area: 'delivery' }, error.answer);
      if (error instanceof ApiError) {
        throw (
          authErrorFor(error.status, error.code, error.detail, { ...this.need(), area: 'delivery' }, { scopes: DELIVERY_SCOPES, forbiddenMeansScope: true }) ??
          error
        );
      }
      throw error;
    }
  }
}
