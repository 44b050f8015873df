// POST /v1/customers/{customer_id}/delivery_quotes (spec 4.3): a client-credentials token
// with scope eats.deliveries. The response is not shown in the spec; this one carries an
// id, the fee (integer minor units), currency, expiry and dropoff ETA.
import { createHash } from 'node:crypto';
import { DeliveryQuoteBody, type DeliveryQuote } from '../../schemas/rider.js';
import { authenticate } from '../auth.js';
import type { SandboxContext } from '../context.js';
import { HttpError, json } from '../http.js';
import type { Router } from '../router.js';
import { fieldsOf, jsonBody } from './errors.js';
import { newId } from './state.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const QUOTE_LIFETIME_MS = 15 * 60 * 1000;

const invalidParams = (message: string, fields?: Record<string, string[]>) =>
  new HttpError({ status: 400, body: { code: 'invalid_params', message, ...(fields ? { fields } : {}) } });

export function registerDeliveryRoutes(router: Router, ctx: SandboxContext): void {
  router.post('/v1/customers/{customer_id}/delivery_quotes', (req) => {
    authenticate(ctx, req, 'eats.deliveries');
    const customer = req.params.customer_id!;
    if (!UUID.test(customer)) throw invalidParams(`customer_id ${customer} is not a UUID (the organization's 128-bit id).`);
    const parsed = DeliveryQuoteBody.safeParse(jsonBody(req.body));
    if (!parsed.success) throw invalidParams('The body needs pickup_address and dropoff_address.', fieldsOf(parsed.error));
    const { pickup_address, dropoff_address } = parsed.data;
    // No geocoder: a stable distance of 1 to 12 miles from the two addresses.
    const digest = createHash('sha256').update(`${pickup_address.trim().toLowerCase()}\n${dropoff_address.trim().toLowerCase()}`).digest();
    const miles = 1 + (digest.readUInt16BE(0) % 1100) / 100;
    const now = ctx.now();
    const pickupSeconds = 600 + (digest[2]! % 10) * 60;
    const duration = pickupSeconds + Math.round(miles * 240);
    const quote: DeliveryQuote = {
      kind: 'delivery_quote',
      id: newId('dqt_'),
      created: new Date(now).toISOString(),
      expires: new Date(now + QUOTE_LIFETIME_MS).toISOString(),
      fee: 499 + Math.round(miles * 125),
      currency: 'usd',
      pickup_duration: pickupSeconds,
      duration,
      dropoff_eta: new Date(now + duration * 1000).toISOString(),
    };
    return json(200, quote);
  });
}
