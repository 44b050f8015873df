// `sandbox serve --webhook-basic-auth | --webhook-oauth-*`: how the sandbox's deliveries
// authenticate to the receiver (spec 6.3 rule 5), checked as flags.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import type { DeliveryAuth } from '../../webhooks/delivery-auth.js';
import { BASIC_AUTH_ENV, OAUTH_CLIENT_ENV, credentialPair } from '../webhooks/delivery-credentials.js';
import type { SandboxServeFlags } from './spec.js';

export async function webhookAuthOf(ctx: Context, flags: SandboxServeFlags): Promise<DeliveryAuth | undefined> {
  const oauthGiven = flags.webhookOauthTokenUrl !== undefined || flags.webhookOauthClient !== undefined || flags.webhookOauthScopes !== undefined;
  if (flags.webhookBasicAuth !== undefined && oauthGiven) throw new UsageError('--webhook-basic-auth and --webhook-oauth-*: give one way to authenticate');
  if (oauthGiven) {
    const tokenUrl = flags.webhookOauthTokenUrl;
    if (tokenUrl === undefined) throw new UsageError('--webhook-oauth-client and --webhook-oauth-scopes go with --webhook-oauth-token-url');
    if (!/^https?:\/\/\S+$/.test(tokenUrl))
      throw new UsageError(`--webhook-oauth-token-url must be an http:// or https:// URL, not ${JSON.stringify(tokenUrl)}`);
    const client = await credentialPair(ctx, flags.webhookOauthClient, '--webhook-oauth-client', OAUTH_CLIENT_ENV);
    if (!client) throw new UsageError(`--webhook-oauth-token-url needs --webhook-oauth-client ID:SECRET (or ${OAUTH_CLIENT_ENV})`);
    return {
      type: 'oauth',
      tokenUrl,
      clientId: client.id,
      clientSecret: client.secret,
      ...(flags.webhookOauthScopes ? { scopes: flags.webhookOauthScopes } : {}),
    };
  }
  // The variable alone does not turn Basic on: it is the receiver's (`listen`'s) setting too.
  if (flags.webhookBasicAuth === undefined) return undefined;
  const basic = await credentialPair(ctx, flags.webhookBasicAuth, '--webhook-basic-auth', BASIC_AUTH_ENV);
  return basic && { type: 'basic', user: basic.id, password: basic.secret };
}
