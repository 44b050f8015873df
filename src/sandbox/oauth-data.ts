// What the authorization-code and refresh-token grants remember: codes, refresh tokens,
// consents and consent pages being shown. Plain JSON, saved with the rest of the state.

export interface AuthorizationCodeRecord {
  code: string;
  client_id: string;
  redirect_uri: string;
  user_id: string;
  scopes: string[];
  /** PKCE (RFC 7636); absent when the authorize request carried no challenge. */
  code_challenge?: string;
  code_challenge_method?: 'S256' | 'plain';
  /** Milliseconds since the epoch. */
  expires_at: number;
  /** Set on first use; kept until expiry so that a replay is recognised (RFC 6749 4.1.2). */
  used: boolean;
  /** Shared by every token issued from this code, so a replay revokes them all. */
  grant_id: string;
}

export interface RefreshTokenRecord {
  refresh_token: string;
  client_id: string;
  /** Absent for a client-credentials grant: the client acts for itself. */
  user_id?: string;
  scopes: string[];
  grant_id: string;
}

/** A consent page shown and not yet answered: its form posts only this record's id. */
export interface PendingConsent {
  id: string;
  client_id: string;
  redirect_uri: string;
  user_id: string;
  scopes: string[];
  state?: string;
  code_challenge?: string;
  code_challenge_method?: 'S256' | 'plain';
  expires_at: number;
}

export interface OAuthData {
  codes: Record<string, AuthorizationCodeRecord>;
  refresh_tokens: Record<string, RefreshTokenRecord>;
  /** `consentKey()` of every consent given. */
  consents: string[];
  pending: Record<string, PendingConsent>;
}

export function emptyOAuthData(): OAuthData {
  return { codes: {}, refresh_tokens: {}, consents: [], pending: {} };
}

/** Consent is remembered per user, client and set of scopes (spec 5.5). */
export function consentKey(userId: string, clientId: string, scopes: readonly string[]): string {
  return [userId, clientId, [...new Set(scopes)].sort().join(' ')].join('\n');
}
