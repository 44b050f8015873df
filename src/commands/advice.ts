// What to do next, appended to an error line: the `auth login` command that fixes an
// AuthError, and per-code advice of the rider API. It lives in the command layer because
// it names commands and flags; the API and auth layers only say what happened.
import { AuthError, NetworkError, type LoginNeed } from '../base/errors.js';
import { isUntrustedCertificate } from '../http/connection-failure.js';
import { connectionErrorCode } from '../http/retry.js';

const isLoopback = (origin: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(origin).hostname);

/** The exact command that signs the profile in again, with the scopes it lacks. */
export function loginCommand(need: Pick<LoginNeed, 'profile' | 'grant' | 'scopes' | 'held'>): string {
  // A token given on stdin is replaced the same way; no scopes can be asked for.
  if (need.grant === 'token') return `platform auth login --with-token --profile ${need.profile}`;
  const parts = ['platform auth login'];
  if (need.grant === 'client_credentials') parts.push('--client-credentials');
  // The scopes the token had, and the ones it lacked: the new sign-in loses nothing.
  const scopes = need.scopes?.length ? [...new Set([...(need.held ?? []), ...need.scopes])] : [];
  if (scopes.length) parts.push(scopes.length === 1 ? `--scopes ${scopes[0]}` : `--scopes "${scopes.join(' ')}"`);
  parts.push(`--profile ${need.profile}`);
  return parts.join(' ');
}

export function adviceFor(error: unknown): string | undefined {
  if (error instanceof AuthError && error.need) {
    const { need } = error;
    if (need.serverToken) return "check PLATFORM_SERVER_TOKEN, or unset it to use the profile's token";
    if (need.area === 'rider') return `sign in as a rider with \`${loginCommand(need)}\``;
    // A delivery app has a client of its own (spec 5.3): the profile's app cannot be given the scope.
    if (need.area === 'delivery')
      return 'the delivery API takes a token of a delivery app: sign a profile in with its client id and the eats.deliveries scope, on the sandbox `platform auth login --client-credentials --client-id sandbox-delivery-client --scopes eats.deliveries --profile eats`, then give --profile eats';
    if (need.scopes) return `sign in with ${need.scopes.length === 1 ? 'that scope' : 'those scopes'}: \`${loginCommand(need)}\``;
    return `run \`${loginCommand(need)}\` to ${need.create ? 'create it' : 'sign in again'}`;
  }
  if (error instanceof NetworkError && error.origin && connectionErrorCode(error.cause) === 'ECONNREFUSED' && isLoopback(error.origin)) {
    return 'is the sandbox running? Start it with `platform sandbox serve`';
  }
  if (error instanceof NetworkError && isUntrustedCertificate(error.cause)) {
    return 'if a TLS-inspecting proxy or a private CA signed it, trust that CA with --ca-file FILE (or PLATFORM_CA_FILE)';
  }
  if (error instanceof Error && error.name === 'RiderApiError') {
    const { code, surge, action } = error as Error & { code: string; surge?: unknown; action?: 'update' | 'cancel' };
    const advice = (action && RIDER_ADVICE_OF[action][code]) ?? RIDER_ADVICE[code];
    if (surge) return advice ? `or request with --accept-surge; ${advice}` : 'or request with --accept-surge';
    return advice;
  }
  return undefined;
}

/** After a delivery whose signature does not match its body, when none of the usual changes explains it (listen's line for it). */
export const SIGNATURE_MISMATCH_ADVICE = 'wrong secret, or not the body that was signed (none of the usual changes to a body explains it)';

/** The command that gives a profile its base URL. */
export function baseUrlAdvice(profile: string): string {
  return `run \`platform auth login --client-credentials --profile ${profile} --base-url URL\` with your API's URL`;
}

/** What to do after a rider API error (spec 7.2 and the sandbox's own codes), by code. */
const RIDER_ADVICE: Record<string, string> = {
  fare_expired: 'estimate the ride again and request it with the new fare',
  invalid_fare_id: 'estimate the ride again; the fare is unknown or belongs to another trip',
  current_trip_exists: 'see it with `platform rider request current`, or cancel it with `platform rider request cancel ID`',
  missing_payment_method: 'add a payment method to the rider account, then request again',
  invalid_payment_method: "use one of the rider's payment methods",
  forbidden: 'this rider is not allowed to request rides; contact support',
  unverified: "confirm the rider's mobile number, then request again",
  destination_required: 'give a destination with --to LAT,LNG',
  distance_exceeded: 'pick a destination within 100 miles of the pickup',
  same_pickup_dropoff: 'give a --to different from --from',
  invalid_seat_count: 'ask for fewer --seats',
  outside_service_area: "pick places inside the product's city (see `platform rider products --at LAT,LNG`)",
  no_product_found: 'list the products there with `platform rider products --at LAT,LNG`',
  not_found: 'check the id (products: `platform rider products --at LAT,LNG`; rides: `platform rider history`)',
  product_not_allowed: 'pick another product',
  retry_request: 'request again',
  receipt_not_ready: 'the receipt is ready once the ride is completed',
  no_current_trip: 'request one with `platform rider request`',
};

/** Advice that depends on the call: the same code means another thing to a cancel and to an update. */
const RIDER_ADVICE_OF: Record<'update' | 'cancel', Record<string, string>> = {
  cancel: { ride_already_ended: 'nothing to cancel' },
  update: { ride_already_ended: "an ended ride's destination cannot change; request a new ride with `platform rider request`" },
};
