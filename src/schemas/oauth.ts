// OAuth 2.0 token endpoint shapes (spec 2.8 token response, 4.2, 5.13).
import * as z from 'zod';

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

/** An authorization code is single-use and expires after ten minutes (RFC 6749 4.1.2). */
export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 600;

export const AUTHORIZE_PATH = '/oauth/v2/universal/authorize';
export const TOKEN_PATH = '/oauth/v2/token';

/**
 * Every scope the sandbox knows (spec 5.1, 5.7), with the plain sentence its consent page
 * shows. The real service's wording is not shown; these say what each scope lets an app do.
 */
export const SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  profile: 'See your name, email address, picture and promotion code',
  'profile.mobile_number': 'See your mobile phone number',
  request: 'Request rides and cancel them on your behalf',
  request_receipt: 'See the receipts of your trips',
  all_trips: 'See your trips, current and past',
  offline_access: 'Keep access when you are not using the app',
  'eats.deliveries': 'Create and track deliveries',
  'direct.organizations': 'Create and manage delivery organizations',
  'eats.pos_provisioning': 'Connect a point-of-sale system to your stores',
  '3p.rides.demand.fulfillment.user': 'Book rides for you through partner apps',
  'ads.ad-accounts.read': 'See your ad accounts',
  'ads.campaigns.read': 'See your ad campaigns, ad groups and ads',
  'ads.campaigns.write': 'Create and change your ad campaigns, ad groups and ads',
  'ads.reporting': 'See the performance reports of your ads',
  'ads.products.read': 'See the product catalog you can advertise',
};
