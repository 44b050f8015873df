// Registered OAuth clients of the sandbox. Add clients (or scopes, or grants) here.
import { SCOPES } from '../schemas/ads.js';
import { SCOPE_DESCRIPTIONS } from '../schemas/oauth.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../schemas/sandbox.js';

export interface OAuthClient {
  client_id: string;
  client_secret: string;
  /** Shown on the consent page. */
  name: string;
  /** Used for created_by_email / updated_by_email of what this client writes. */
  email: string;
  /** Scopes of the client-credentials grant (the client acting for itself). */
  scopes: readonly string[];
  /** Scopes a user may grant it on the consent page (authorization-code grant). */
  user_scopes: readonly string[];
  grants: readonly string[];
  /** Registered redirect URIs; a loopback one matches any port (RFC 8252 7.3). */
  redirect_uris: readonly string[];
  /** Legacy server token (`Authorization: Token ...`, spec 5.9): products and price estimates only. */
  server_token?: string;
  /** Where this application's webhook events go (spec 6); over `sandbox serve --webhook-url`. */
  webhook_url?: string;
  /** Web origins registered in the application's settings: browsers there may call the rider API (CORS, spec 5.11). */
  allowed_origins?: readonly string[];
}

/** Public demo server token of the sandbox (rider products and price estimates). */
export const SANDBOX_DEMO_SERVER_TOKEN = 'sandbox-demo-server-token';
/** The web origin the demo application registered for CORS. */
export const SANDBOX_DEMO_WEB_ORIGIN = 'http://localhost:3000';
/** A second demo application for the delivery API: its client-credentials scope is eats.deliveries. */
export const SANDBOX_DELIVERY_CLIENT_ID = 'sandbox-delivery-client';
export const SANDBOX_DELIVERY_CLIENT_SECRET = 'sandbox-delivery-secret';

const ADS_SCOPES = [SCOPES.accountsRead, SCOPES.campaignsRead, SCOPES.campaignsWrite, SCOPES.reporting, SCOPES.productsRead];

export const SANDBOX_CLIENTS: readonly OAuthClient[] = [
  {
    client_id: SANDBOX_DEMO_CLIENT_ID,
    client_secret: SANDBOX_DEMO_CLIENT_SECRET,
    name: 'Platform CLI (sandbox demo)',
    email: 'sandbox-demo@example.com',
    scopes: ADS_SCOPES,
    user_scopes: Object.keys(SCOPE_DESCRIPTIONS),
    grants: ['client_credentials', 'authorization_code', 'refresh_token'],
    redirect_uris: ['http://127.0.0.1/callback'],
    server_token: SANDBOX_DEMO_SERVER_TOKEN,
    // A web app in development on the usual local port.
    allowed_origins: [SANDBOX_DEMO_WEB_ORIGIN, 'http://127.0.0.1:3000'],
  },
  {
    client_id: SANDBOX_DELIVERY_CLIENT_ID,
    client_secret: SANDBOX_DELIVERY_CLIENT_SECRET,
    name: 'Delivery app (sandbox demo)',
    email: 'sandbox-delivery@example.com',
    scopes: ['eats.deliveries', 'direct.organizations'],
    user_scopes: [],
    grants: ['client_credentials'],
    redirect_uris: [],
  },
];

/** Every origin some application registered (a preflight carries no credentials to tell which). */
export function allowedOrigins(): string[] {
  return SANDBOX_CLIENTS.flatMap((c) => c.allowed_origins ?? []);
}

export function findClient(clientId: string): OAuthClient | undefined {
  return SANDBOX_CLIENTS.find((c) => c.client_id === clientId);
}
