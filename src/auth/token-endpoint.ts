// Calls POST /oauth/v2/token (spec 4.2) and turns the answer into a stored token.
import type { HttpCore } from '../http/core.js';
import { ApiError, AuthError, type LoginNeed } from '../base/errors.js';
import type { Grant, StoredToken } from '../config/profile.js';
import { TOKEN_PATH, TokenResponse } from '../schemas/oauth.js';

/** The token endpoint refused the credentials, code or refresh token (exit 4). */
export class TokenRefusedError extends AuthError {
  constructor(
    readonly code: string,
    message: string,
    need?: LoginNeed,
  ) {
    super(message, need);
    this.name = 'TokenRefusedError';
  }
}

export async function requestToken(
  http: HttpCore,
  form: Record<string, string | undefined>,
  grant: Grant,
  now: number,
  /** Who signs in again when the endpoint refuses (the command layer names the command). */
  need: LoginNeed,
  signal?: AbortSignal,
): Promise<StoredToken> {
  let response;
  try {
    response = await http.send({ method: 'POST', path: TOKEN_PATH, form, auth: false, idempotencyKey: false, signal });
  } catch (error) {
    if (error instanceof ApiError && ['invalid_client', 'invalid_grant', 'unauthorized', 'invalid_scope'].includes(error.code)) {
      throw new TokenRefusedError(error.code, error.message, need);
    }
    throw error;
  }
  const parsed = TokenResponse.safeParse(response.body);
  if (!parsed.success) throw new ApiError(response.status, 'InvalidTokenResponse', 'the token endpoint answered without an access_token');
  const token = parsed.data;
  return {
    access_token: token.access_token,
    token_type: token.token_type,
    expires_at: now + token.expires_in * 1000,
    scope: token.scope,
    refresh_token: token.refresh_token,
    grant,
  };
}
