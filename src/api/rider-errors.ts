// Rider API errors (spec 7.2) as one line each: the code, what happened, and what to do.
// 422 validation_failed lists every field; the 409 surge error keeps its confirmation so
// `rider request` can ask and retry with it.
import { ApiError, type LoginNeed } from '../base/errors.js';
import { authErrorFor } from '../http/auth-errors.js';
import type { SurgeConfirmation } from '../schemas/rider.js';
import type { HttpResponse } from '../http/core.js';

export class RiderApiError extends ApiError {
  constructor(
    status: number,
    code: string,
    detail: string,
    readonly fields?: Record<string, string[]>,
    readonly surge?: SurgeConfirmation,
    requestId?: string,
    /** The call that failed, when its advice depends on it (an ended ride: nothing to cancel, or no destination to change). */
    readonly action?: RiderAction,
  ) {
    super(status, code, detail, requestId);
    this.name = 'RiderApiError';
  }
}

export type RiderAction = 'update' | 'cancel';

interface Body {
  code?: string;
  message?: string;
  title?: string;
  fields?: Record<string, string | string[]>;
  meta?: { surge_confirmation?: SurgeConfirmation };
  errors?: Array<{ code?: string; title?: string }>;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');

/** Scopes a rider call needs when the answer is insufficient_scope. */
const RIDER_SCOPES = ['profile', 'request'];

export function riderErrorFor(response: HttpResponse, need: LoginNeed, action?: RiderAction): Error {
  const body = (typeof response.body === 'object' && response.body ? response.body : {}) as Body;
  const code = body.code ?? body.errors?.[0]?.code ?? `HTTP ${response.status}`;
  const message = oneLine(
    body.message ??
      body.title ??
      body.errors?.[0]?.title ??
      (typeof response.body === 'string' && response.body ? response.body.slice(0, 200) : 'no error details in the response'),
  );
  // A rider call acts for a user: the advice is a browser sign-in, whatever the profile's grant.
  const authError = authErrorFor(response.status, code, message, response.status === 403 ? { ...need, grant: 'authorization_code', area: 'rider' } : need, {
    scopes: RIDER_SCOPES,
  });
  if (authError) return authError;
  const fields = body.fields ? Object.fromEntries(Object.entries(body.fields).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])) : undefined;
  const surge = body.meta?.surge_confirmation;
  let detail = message;
  if (fields && Object.keys(fields).length)
    detail += `: ${Object.entries(fields)
      .map(([k, v]) => `${k}: ${v.join(', ')}`)
      .join('; ')}`;
  if (surge) detail += `; confirm surge pricing x${surge.multiplier} at ${surge.href}`;
  return new RiderApiError(response.status, code, detail, fields, surge, response.headers['x-request-id'], action);
}
