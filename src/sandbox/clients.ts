// Registered OAuth clients of the sandbox. Add clients (or scopes, or grants) here.
import { SCOPES } from '../schemas/ads.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../schemas/sandbox.js';

export interface OAuthClient {
  client_id: string;
  client_secret: string;
  /** Used for created_by_email / updated_by_email of what this client writes. */
  email: string;
  scopes: readonly string[];
  grants: readonly string[];
}

export const SANDBOX_CLIENTS: readonly OAuthClient[] = [
  {
    client_id: SANDBOX_DEMO_CLIENT_ID,
    client_secret: SANDBOX_DEMO_CLIENT_SECRET,
    email: 'sandbox-demo@example.com',
    scopes: [SCOPES.accountsRead, SCOPES.campaignsRead, SCOPES.campaignsWrite],
    grants: ['client_credentials'],
  },
];

export function findClient(clientId: string): OAuthClient | undefined {
  return SANDBOX_CLIENTS.find((c) => c.client_id === clientId);
}
