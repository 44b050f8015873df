// Typed client for the delivery quote (spec 4.3): a client-credentials token with scope
// eats.deliveries. Never prints.
import { ApiError, AuthError } from '../errors.js';
import type { DeliveryQuote } from '../schemas/rider.js';
import type { HttpCore } from './http.js';

export class DeliveryApi {
  constructor(private readonly http: HttpCore, private readonly loginHint: () => string) {}

  async quote(customerId: string, pickupAddress: string, dropoffAddress: string): Promise<DeliveryQuote> {
    try {
      const res = await this.http.send<DeliveryQuote>({
        method: 'POST',
        path: `/v1/customers/${encodeURIComponent(customerId)}/delivery_quotes`,
        json: { pickup_address: pickupAddress, dropoff_address: dropoffAddress },
      });
      return res.body;
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) {
        // The delivery API wants its own scope (spec 5.3): a profile of a delivery app.
        throw new AuthError(`${error.message}; sign the profile in with the delivery scope: \`${this.loginHint()} --scopes eats.deliveries\``);
      }
      throw error;
    }
  }
}
