// Bearer tokens for one profile: $PLATFORM_TOKEN, else the cached token while it has more
// than five minutes left, else a new one by the profile's grant: a browser sign-in
// (authorization_code) is refreshed with its refresh token; a client-credentials profile
// asks for a new token. Either is cached in the profile.
import type { HttpCore, TokenSource } from '../http/core.js';
import type { Redactor } from '../http/redact.js';
import type { Clock, Env } from '../io.js';
import { AuthError, type LoginNeed } from '../errors.js';
import { clientIdOf, clientSecretOf } from '../config/resolve.js';
import { mergedProfile, patchProfile, type ConfigShape, type ConfigStore } from '../config/store.js';
import type { Grant, Profile, StoredToken } from '../config/profile.js';
import type { requestToken as RequestToken, TokenRefusedError } from './token-endpoint.js';

// The token endpoint (and zod, which checks its answers) loads only when a token is
// actually requested: a call with a cached token does not pay for it.
const requestToken: typeof RequestToken = async (...args) => (await import('./token-endpoint.js')).requestToken(...args);
const isRefused = (error: unknown): error is TokenRefusedError => error instanceof Error && error.name === 'TokenRefusedError';

/** The refresh token was refused for good: the sign-in is over (its tokens were removed). */
class DeadSignInError extends AuthError {}

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

  /** Which profile and grant, for the advice of an AuthError. */
  get need(): LoginNeed {
    const held = this.#o.config.getProfile(this.#o.profileName)?.token?.scope.split(' ').filter(Boolean);
    return { profile: this.#o.profileName, grant: this.grant, ...(held?.length ? { held } : {}) };
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
    // Concurrent requests of this process share one renewal.
    this.#pending ??= this.#renew(options.fresh ? cached?.access_token : undefined, options.signal).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /**
   * Under the config lock: another process may have renewed the token while this one waited
   * for it (its refresh retired our refresh token), so the stored token is read again first
   * and used when it is good; only otherwise is a new one requested, and stored.
   */
  async #renew(refused: string | undefined, signal?: AbortSignal): Promise<string> {
    const outcome = await this.#o.config.transaction(async (config): Promise<string | AuthError> => {
      const profile = this.#profileIn(config);
      const stored = profile.token;
      this.#remember(stored);
      if (stored && this.#usable(stored) && stored.access_token !== refused) return stored.access_token;
      const grant = profile.grant ?? stored?.grant ?? 'client_credentials';
      let token: StoredToken;
      try {
        token =
          grant === 'authorization_code' ? await this.#refreshed(config, profile, signal) : await this.#clientCredentialsToken(profile, undefined, signal);
      } catch (error) {
        // A dead sign-in was removed from `config`: let the transaction write that, then fail.
        if (error instanceof DeadSignInError) return error;
        throw error;
      }
      this.#remember(token);
      patchProfile(config, this.#o.profileName, { token, grant });
      return token.access_token;
    });
    if (outcome instanceof AuthError) throw outcome;
    return outcome;
  }

  /** Runs the client-credentials grant and caches the result in the profile. */
  async clientCredentials(signal?: AbortSignal, scopes?: string[]): Promise<StoredToken> {
    return this.#o.config.transaction(async (config) => {
      const token = await this.#clientCredentialsToken(this.#profileIn(config), scopes, signal);
      this.#remember(token);
      patchProfile(config, this.#o.profileName, { token, grant: 'client_credentials' });
      return token;
    });
  }

  async #clientCredentialsToken(profile: Profile, scopes: string[] | undefined, signal?: AbortSignal): Promise<StoredToken> {
    const { clientId, secret } = await this.#client(profile);
    const requested = scopes ?? profile.scopes;
    return requestToken(
      this.#o.tokenHttp(),
      { grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: requested?.length ? requested.join(' ') : undefined },
      'client_credentials',
      this.#o.clock.now(),
      this.loginHint,
      signal,
    );
  }

  /** Exchanges an authorization code (browser sign-in) and caches the tokens in the profile. */
  async authorizationCode(exchange: CodeExchange, signal?: AbortSignal): Promise<StoredToken> {
    this.#o.redactor.add(exchange.code);
    this.#o.redactor.add(exchange.verifier);
    return this.#o.config.transaction(async (config) => {
      const { clientId, secret } = await this.#client(this.#profileIn(config));
      const token = await requestToken(
        this.#o.tokenHttp(),
        {
          grant_type: 'authorization_code',
          client_id: clientId,
          client_secret: secret,
          code: exchange.code,
          redirect_uri: exchange.redirectUri,
          code_verifier: exchange.verifier,
        },
        'authorization_code',
        this.#o.clock.now(),
        `platform auth login --profile ${this.#o.profileName}`,
        signal,
      );
      this.#remember(token);
      patchProfile(config, this.#o.profileName, { token, grant: 'authorization_code' });
      return token;
    });
  }

  /**
   * Trades the refresh token of a browser sign-in for new tokens (the old refresh token
   * stops working). Runs inside the config transaction: `config` is the file as it is now.
   */
  async #refreshed(config: ConfigShape, profile: Profile, signal?: AbortSignal): Promise<StoredToken> {
    const name = this.#o.profileName;
    const hint = `platform auth login --profile ${name}`;
    let current = profile.token;
    if (!current?.refresh_token) {
      throw new AuthError(`profile ${name} is not signed in${current ? ' (its token cannot be renewed)' : ''}. Run \`${hint}\`.`);
    }
    const { clientId, secret } = await this.#client(profile);
    for (let attempt = 1; ; attempt++) {
      try {
        const token = await requestToken(
          this.#o.tokenHttp(),
          { grant_type: 'refresh_token', client_id: clientId, client_secret: secret, refresh_token: current.refresh_token },
          'authorization_code',
          this.#o.clock.now(),
          hint,
          signal,
        );
        token.refresh_token ??= current.refresh_token;
        return token;
      } catch (error) {
        // A wrong client secret says nothing about the refresh token: keep it.
        if (!isRefused(error) || error.code !== 'invalid_grant') throw error;
        // A process that does not take the lock (an older version) may have refreshed first:
        // a newer token on disk is used, or its refresh token tried, before giving up.
        const latest = this.#o.config.readFromDisk().profiles[name]?.token;
        if (latest?.refresh_token && latest.refresh_token !== current.refresh_token && attempt === 1) {
          if (this.#usable(latest)) return latest;
          current = latest;
          continue;
        }
        // The token this process used is dead: remove it (and only it) from the profile.
        if (config.profiles[name]?.token?.refresh_token === current.refresh_token) patchProfile(config, name, { token: undefined });
        throw new DeadSignInError(`the sign-in of profile ${name} could not be renewed: ${error.message}`);
      }
    }
  }

  #usable(token: StoredToken): boolean {
    return token.expires_at - REFRESH_MARGIN_MS > this.#o.clock.now();
  }

  #remember(token: StoredToken | undefined): void {
    this.#o.redactor.add(token?.access_token);
    this.#o.redactor.add(token?.refresh_token);
  }

  async #client(profile: Profile): Promise<{ clientId: string; secret: string }> {
    const clientId = clientIdOf(this.#o.env, profile)?.value;
    if (!clientId) {
      throw new AuthError(`profile ${this.#o.profileName} has no client id. Run \`${this.loginHint}\` or set PLATFORM_CLIENT_ID.`);
    }
    const secret = await this.#clientSecret(profile);
    this.#o.redactor.add(secret);
    return { clientId, secret };
  }

  async #clientSecret(profile: Profile): Promise<string> {
    const secret = clientSecretOf(this.#o.env, profile, this.#o.profileName)?.value;
    if (secret) return secret;
    if (this.#o.promptSecret) return this.#o.promptSecret(`Client secret for profile ${this.#o.profileName}`);
    throw new AuthError(`no client secret for profile ${this.#o.profileName}: set PLATFORM_CLIENT_SECRET or run \`${this.loginHint}\``);
  }

  #profileIn(config: ConfigShape): Profile {
    const profile = mergedProfile(config, this.#o.profileName);
    if (!profile) {
      throw new AuthError(`no profile named ${this.#o.profileName}. Run \`${this.loginHint}\` to create it.`);
    }
    return profile;
  }

  #profile(): Profile {
    const profile = this.#o.config.getProfile(this.#o.profileName);
    if (!profile) {
      throw new AuthError(`no profile named ${this.#o.profileName}. Run \`${this.loginHint}\` to create it.`);
    }
    return profile;
  }
}
