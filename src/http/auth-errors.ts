// The one place an HTTP answer becomes an AuthError: 401 (credentials refused) and 403
// for a missing scope, whichever API area answered. Everything else stays an ApiError.
import { AuthError, type LoginNeed } from '../base/errors.js';

/** The scope a 403 names: the ads API says "the token lacks scope X". */
const LACKS_SCOPE = /lacks scope ([\w.:-]+)/;

export interface ScopeHint {
  /** The scopes the call needs, named in the advice when the answer does not name one. */
  scopes?: string[];
  /** Every 403 of this API means a missing scope (the delivery API). */
  forbiddenMeansScope?: boolean;
}

export function authErrorFor(status: number, code: string, message: string, need: LoginNeed, hint: ScopeHint = {}): AuthError | undefined {
  if (status === 401) return new AuthError(`${code}: ${message}`, need, { code, detail: message });
  if (status !== 403) return undefined;
  const named = LACKS_SCOPE.exec(message)?.[1];
  if (named) return new AuthError(`${code}: ${message}`, { ...need, scopes: [named] }, { code, detail: message });
  if (code === 'insufficient_scope' || hint.forbiddenMeansScope)
    return new AuthError(`${code}: ${message}`, { ...need, scopes: hint.scopes }, { code, detail: message });
  return undefined;
}
