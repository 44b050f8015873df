// Rider API errors (spec 7.2) as one line each: the code, what happened, and what to do.
// 422 validation_failed lists every field; the 409 surge error keeps its confirmation so
// `rider request` can ask and retry with it.
import { ApiError, AuthError } from '../errors.js';
import type { SurgeConfirmation } from '../schemas/rider.js';
import type { HttpResponse } from './http.js';

/** What to do, by error code (spec 7.2 and the sandbox's own codes). */
const ADVICE: Record<string, string> = {
  fare_expired: 'estimate the ride again and request it with the new fare',
  invalid_fare_id: 'estimate the ride again; the fare is unknown or belongs to another trip',
  current_trip_exists: 'see it with `platform rider request current`, or cancel it with `platform rider request cancel ID`',
  missing_payment_method: 'add a payment method to the rider account, then request again',
  invalid_payment_method: 'use one of the rider\'s payment methods',
  forbidden: 'this rider is not allowed to request rides; contact support',
  unverified: 'confirm the rider\'s mobile number, then request again',
  destination_required: 'give a destination with --to LAT,LNG',
  distance_exceeded: 'pick a destination within 100 miles of the pickup',
  same_pickup_dropoff: 'give a --to different from --from',
  invalid_seat_count: 'ask for fewer --seats',
  outside_service_area: 'pick places inside the product\'s city (see `platform rider products --at LAT,LNG`)',
  no_product_found: 'list the products there with `platform rider products --at LAT,LNG`',
  not_found: 'check the id (products: `platform rider products --at LAT,LNG`; rides: `platform rider history`)',
  product_not_allowed: 'pick another product',
  retry_request: 'request again',
  receipt_not_ready: 'the receipt is ready once the ride is completed',
  no_current_trip: 'request one with `platform rider request`',
  ride_already_ended: 'nothing to cancel',
};

export class RiderApiError extends ApiError {
  constructor(
    status: number,
    code: string,
    detail: string,
    readonly fields?: Record<string, string[]>,
    readonly surge?: SurgeConfirmation,
    requestId?: string,
  ) {
    super(status, code, detail, requestId);
    this.name = 'RiderApiError';
  }
}

interface Body {
  code?: string;
  message?: string;
  title?: string;
  fields?: Record<string, string | string[]>;
  meta?: { surge_confirmation?: SurgeConfirmation };
  errors?: Array<{ code?: string; title?: string }>;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');

export interface ErrorContext {
  /** The command that signs the profile in (401). */
  loginHint: string;
  /** The call used a server token (PLATFORM_SERVER_TOKEN). */
  serverToken: boolean;
}

export function riderErrorFor(response: HttpResponse, context: ErrorContext): Error {
  const body = (typeof response.body === 'object' && response.body ? response.body : {}) as Body;
  const code = body.code ?? body.errors?.[0]?.code ?? `HTTP ${response.status}`;
  const message = oneLine(body.message ?? body.title ?? body.errors?.[0]?.title ?? (typeof response.body === 'string' && response.body ? response.body.slice(0, 200) : 'no error details in the response'));
  if (response.status === 401) {
    const what = context.serverToken ? 'check PLATFORM_SERVER_TOKEN, or unset it to use the profile\'s token' : `run \`${context.loginHint}\` to sign in again`;
    return new AuthError(`${code}: ${message}; ${what}`);
  }
  if (response.status === 403 && code === 'insufficient_scope') {
    return new AuthError(`${code}: ${message}; sign in as a rider with \`platform auth login --scopes "profile request"\``);
  }
  const fields = body.fields ? Object.fromEntries(Object.entries(body.fields).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])) : undefined;
  const surge = body.meta?.surge_confirmation;
  let detail = message;
  if (fields && Object.keys(fields).length) detail += `: ${Object.entries(fields).map(([k, v]) => `${k}: ${v.join(', ')}`).join('; ')}`;
  if (surge) detail += `; confirm surge pricing x${surge.multiplier} at ${surge.href}, or request with --accept-surge`;
  const advice = ADVICE[code];
  if (advice) detail += `; ${advice}`;
  return new RiderApiError(response.status, code, detail, fields, surge, response.headers['x-request-id']);
}
