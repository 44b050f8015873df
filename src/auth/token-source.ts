// Bearer tokens for one profile: $PLATFORM_TOKEN, else the cached token while it has more
// than five minutes left, else a new one by the profile's grant: a browser sign-in
// (authorization_code) is refreshed with its refresh token; a client-credentials profile
// asks for a new token. Either is cached in the profile.
import type { HttpCore, TokenSource } from '../api/http.js';
import type { Redactor } from '../api/redact.js';
import type { Clock, Env } from '../context.js';
import { AuthError } from '../errors.js';
import type { ConfigStore } from '../config/store.js';
import type { Grant, Profile, StoredToken } from '../config/profile.js';
import type { TokenRefusedError } from './token-endpoint.js';

// The token endpoint (and zod, which checks its answers) loads only when a token is
// actually requested: a call with a cached token does not pay for it.
const requestToken: typeof import('./token-endpoint.js').requestToken = async (...args) => (await import('./token-endpoint.js')).requestToken(...args);
const isRefused = (error: unknown): error is TokenRefusedError => error instanceof Error && error.name === 'TokenRefusedError';

/** A token this close to expiry is replaced before use. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

export interface ProfileTokenSourceOptions {
  profileName: string;
  config: ConfigStore;
  env: Env;
  clock: Clock;
  redactor: Redactor;
  /** The HTTP core without a token source, for the token endpoint. */
  tokenHttp: () => HttpCore;
  /** Hidden prompt for the client secret, used only when neither env nor profile has it. */
  promptSecret?: (message: string) => Promise<string>;
}

export interface CodeExchange {
  code: string;
  redirectUri: string;
  verifier: string;
}

export class ProfileTokenSource implements TokenSource {
  readonly #o: ProfileTokenSourceOptions;
  #pending: Promise<string> | undefined;

  constructor(options: ProfileTokenSourceOptions) {
    this.#o = options;
  }

  /** How the profile signs in: what it was logged in with, else client credentials. */
  get grant(): Grant {
    const profile = this.#o.config.getProfile(this.#o.profileName);
    return profile?.grant ?? profile?.token?.grant ?? 'client_credentials';
  }

  /** The command that signs this profile in again, by its grant. */
  get loginHint(): string {
    const name = this.#o.profileName;
    return this.grant === 'authorization_code' ? `platform auth login --profile ${name}` : `platform auth login --client-credentials --profile ${name}`;
  }

  async token(options: { fresh?: boolean; signal?: AbortSignal } = {}): Promise<string> {
    const fromEnv = this.#o.env.PLATFORM_TOKEN;
    if (fromEnv) {
      this.#o.redactor.add(fromEnv);
      if (options.fresh) throw new AuthError('the token in PLATFORM_TOKEN was refused; unset it or set a valid one');
      return fromEnv;
    }
    const cached = this.#profile().token;
    this.#remember(cached);
    if (!options.fresh && cached && this.#usable(cached)) return cached.access_token;
    // Concurrent requests share one token request.
    this.#pending ??= this.#obtain(options.signal).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #obtain(signal?: AbortSignal): Promise<string> {
    if (this.grant === 'authorization_code') return (await this.refresh(signal)).access_token;
    return (await this.clientCredentials(signal)).access_token;
  }

  /** Runs the client-credentials grant and caches the result in the profile. */
  async clientCredentials(signal?: AbortSignal, scopes?: string[]): Promise<StoredToken> {
    const profile = this.#profile();
    const { clientId, secret } = await this.#client(profile);
    const requested = scopes ?? profile.scopes;
    const token = await requestToken(
      this.#o.tokenHttp(),
      { grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: requested?.length ? requested.join(' ') : undefined },
      'client_credentials',
      this.#o.clock.now(),
      this.loginHint,
      signal,
    );
    await this.#store(token, 'client_credentials');
    return token;
  }

  /** Exchanges an authorization code (browser sign-in) and caches the tokens in the profile. */
  async authorizationCode(exchange: CodeExchange, signal?: AbortSignal): Promise<StoredToken> {
    const { clientId, secret } = await this.#client(this.#profile());
    this.#o.redactor.add(exchange.code);
    this.#o.redactor.add(exchange.verifier);
    const hint = `platform auth login --profile ${this.#o.profileName}`;
    const token = await requestToken(
      this.#o.tokenHttp(),
      { grant_type: 'authorization_code', client_id: clientId, client_secret: secret, code: exchange.code, redirect_uri: exchange.redirectUri, code_verifier: exchange.verifier },
      'authorization_code',
      this.#o.clock.now(),
      hint,
      signal,
    );
    await this.#store(token, 'authorization_code');
    return token;
  }

  /** Trades the refresh token of a browser sign-in for new tokens (the old refresh token stops working). */
  async refresh(signal?: AbortSignal): Promise<StoredToken> {
    const profile = this.#profile();
    const name = this.#o.profileName;
    const hint = `platform auth login --profile ${name}`;
    const current = profile.token;
    if (!current?.refresh_token) {
      throw new AuthError(`profile ${name} is not signed in${current ? ' (its token cannot be renewed)' : ''}. Run \`${hint}\`.`);
    }
    const { clientId, secret } = await this.#client(profile);
    let token: StoredToken;
    try {
      token = await requestToken(
        this.#o.tokenHttp(),
        { grant_type: 'refresh_token', client_id: clientId, client_secret: secret, refresh_token: current.refresh_token },
        'authorization_code',
        this.#o.clock.now(),
        hint,
        signal,
      );
    } catch (error) {
      // A wrong client secret says nothing about the refresh token: keep it.
      if (!isRefused(error) || error.code !== 'invalid_grant') throw error;
      // Another `platform` process may have refreshed first, which retired our refresh token.
      const latest = this.#profile().token;
      if (latest && latest.refresh_token !== current.refresh_token && this.#usable(latest)) {
        this.#remember(latest);
        return latest;
      }
      await this.#o.config.updateProfile(name, { token: undefined });
      throw new AuthError(`the sign-in of profile ${name} could not be renewed: ${error.message}`);
    }
    token.refresh_token ??= current.refresh_token;
    await this.#store(token, 'authorization_code');
    return token;
  }

  #usable(token: StoredToken): boolean {
    return token.expires_at - REFRESH_MARGIN_MS > this.#o.clock.now();
  }

  #remember(token: StoredToken | undefined): void {
    this.#o.redactor.add(token?.access_token);
    this.#o.redactor.add(token?.refresh_token);
  }

  async #store(token: StoredToken, grant: Grant): Promise<void> {
    this.#remember(token);
    await this.#o.config.updateProfile(this.#o.profileName, { token, grant });
  }

  async #client(profile: Profile): Promise<{ clientId: string; secret: string }> {
    const clientId = this.#o.env.PLATFORM_CLIENT_ID || profile.client_id;
    if (!clientId) {
      throw new AuthError(`profile ${this.#o.profileName} has no client id. Run \`${this.loginHint}\` or set PLATFORM_CLIENT_ID.`);
    }
    const secret = await this.#clientSecret(profile);
    this.#o.redactor.add(secret);
    return { clientId, secret };
  }

  async #clientSecret(profile: Profile): Promise<string> {
    const secret = this.#o.env.PLATFORM_CLIENT_SECRET || profile.client_secret;
    if (secret) return secret;
    if (this.#o.promptSecret) return this.#o.promptSecret(`Client secret for profile ${this.#o.profileName}`);
    throw new AuthError(`no client secret for profile ${this.#o.profileName}: set PLATFORM_CLIENT_SECRET or run \`${this.loginHint}\``);
  }

  #profile(): Profile {
    const profile = this.#o.config.getProfile(this.#o.profileName);
    if (!profile) {
      throw new AuthError(`no profile named ${this.#o.profileName}. Run \`${this.loginHint}\` to create it.`);
    }
    return profile;
  }
}
