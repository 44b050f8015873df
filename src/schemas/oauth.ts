// OAuth 2.0 token endpoint shapes (spec 2.8 token response, 4.2, 5.13).
import { z } from 'zod';

/** Access token lifetime (spec 5.4, 8). */
export const TOKEN_LIFETIME_SECONDS = 2592000;
/** Client-credentials token requests allowed per client per hour (spec 5.4, 8). */
export const TOKEN_REQUESTS_PER_HOUR = 100;

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.string(),
  expires_in: z.number(),
  scope: z.string(),
  refresh_token: z.string().optional(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

export const OAUTH_ERROR_CODES = ['invalid_request', 'invalid_client', 'invalid_scope', 'invalid_grant', 'unsupported_grant_type', 'server_error', 'unauthorized', 'rate_limit_exceeded'] as const;

export const OAuthErrorBody = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});
