// Bearer tokens for one profile: $PLATFORM_TOKEN, else the cached token while it has more
// than five minutes left, else a new client-credentials token, cached in the profile.
import type { HttpCore, TokenSource } from '../api/http.js';
import type { Redactor } from '../api/redact.js';
import type { Clock, Env } from '../context.js';
import { AuthError } from '../errors.js';
import type { ConfigStore } from '../config/store.js';
import type { Profile, StoredToken } from '../config/profile.js';
import { requestToken } from './token-endpoint.js';

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

export class ProfileTokenSource implements TokenSource {
  readonly #o: ProfileTokenSourceOptions;
  #pending: Promise<string> | undefined;

  constructor(options: ProfileTokenSourceOptions) {
    this.#o = options;
  }

  get loginHint(): string {
    return `platform auth login --client-credentials --profile ${this.#o.profileName}`;
  }

  async token(options: { fresh?: boolean; signal?: AbortSignal } = {}): Promise<string> {
    const fromEnv = this.#o.env.PLATFORM_TOKEN;
    if (fromEnv) {
      this.#o.redactor.add(fromEnv);
      if (options.fresh) throw new AuthError('the token in PLATFORM_TOKEN was refused; unset it or set a valid one');
      return fromEnv;
    }
    const cached = this.#profile().token;
    if (!options.fresh && cached && cached.expires_at - REFRESH_MARGIN_MS > this.#o.clock.now()) {
      this.#o.redactor.add(cached.access_token);
      return cached.access_token;
    }
    // Concurrent requests share one token request.
    this.#pending ??= this.#obtain(options.signal).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #obtain(signal?: AbortSignal): Promise<string> {
    const token = await this.clientCredentials(signal);
    return token.access_token;
  }

  /** Runs the client-credentials grant and caches the result in the profile. */
  async clientCredentials(signal?: AbortSignal, scopes?: string[]): Promise<StoredToken> {
    const profile = this.#profile();
    const clientId = this.#o.env.PLATFORM_CLIENT_ID || profile.client_id;
    if (!clientId) {
      throw new AuthError(`profile ${this.#o.profileName} has no client id. Run \`${this.loginHint}\` or set PLATFORM_CLIENT_ID.`);
    }
    const secret = await this.#clientSecret(profile);
    this.#o.redactor.add(secret);
    const requested = scopes ?? profile.scopes;
    const token = await requestToken(
      this.#o.tokenHttp(),
      { grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: requested?.length ? requested.join(' ') : undefined },
      'client_credentials',
      this.#o.clock.now(),
      this.loginHint,
      signal,
    );
    this.#o.redactor.add(token.access_token);
    this.#o.config.updateProfile(this.#o.profileName, { token });
    return token;
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
