// Bearer tokens for one profile: $PLATFORM_TOKEN, else the cached token while it has more
// than five minutes left, else a new one by the profile's grant: a browser sign-in
// (authorization_code) is refreshed with its refresh token; a client-credentials profile
// asks for a new token. Either is cached in the profile.
//
// A config folder that cannot be written (disk full, read-only mount) must not cost the
// sign-in: a refresh retires the old refresh token, so the store reserves the space for the
// new one before the refresh is sent. When even that fails, nothing is sent: the current
// access token is used while it lasts, else the command fails and the saved sign-in stays
// good. A token issued and then not saved (the folder turned read-only meanwhile) is kept
// in memory for the rest of the command, and stderr says so; so is one the OS keyring
// would not take (a profile whose secrets are kept there: config/secret-store.ts).
import type { HttpCore, TokenSource } from '../http/core.js';
import type { Redactor } from '../http/redact.js';
import type { Clock, Env } from '../base/io.js';
import { AuthError, CommandError, type LoginNeed } from '../base/errors.js';
import { clientIdOf, clientSecretOf } from '../config/resolve.js';
import { mergedProfile, patchProfile, type ConfigShape, type ConfigStore } from '../config/store.js';
import { ConfigNotWritableError, notWritableReason, notWritableRemedy } from '../config/write-failure.js';
import { KeyringUnavailableError } from '../config/secret-store.js';
import type { Grant, Profile, StoredToken } from '../config/profile.js';
import type { requestToken as RequestToken, TokenRefusedError } from './token-endpoint.js';

// The token endpoint (and zod, which checks its answers) loads only when a token is
// actually requested: a call with a cached token does not pay for it.
const requestToken: typeof RequestToken = async (...args) => (await import('./token-endpoint.js')).requestToken(...args);
const isRefused = (error: unknown): error is TokenRefusedError => error instanceof Error && error.name === 'TokenRefusedError';

/** The refresh token was refused for good: the sign-in is over (its tokens were removed). */
class DeadSignInError extends AuthError {}

/** A renewal that was not sent because its result could not be saved: exit 1, the sign-in is intact. */
class RenewalNotSavedError extends CommandError {}

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
  /** A line of chatter on stderr (a token that could not be saved). */
  /** A line of chatter; with `need`, the command layer adds the sign-in to run after this command. */
  warn?: (line: string, need?: LoginNeed) => void;
}

export interface CodeExchange {
  code: string;
  redirectUri: string;
  verifier: string;
}

export class ProfileTokenSource implements TokenSource {
  readonly #o: ProfileTokenSourceOptions;
  #pending: Promise<string> | undefined;
  /** A token this process was issued and could not save: used for the rest of the command. */
  #held: StoredToken | undefined;

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

  async token(options: { fresh?: boolean; signal?: AbortSignal } = {}): Promise<string> {
    const fromEnv = this.#o.env.PLATFORM_TOKEN;
    if (fromEnv) {
      this.#o.redactor.add(fromEnv);
      if (options.fresh) throw new AuthError('the token in PLATFORM_TOKEN was refused; unset it or set a valid one');
      return fromEnv;
    }
    const cached = this.#held ?? (await this.#storedToken(Boolean(options.fresh)));
    this.#remember(cached);
    if (!options.fresh && cached && this.#usable(cached)) return cached.access_token;
    // Concurrent requests of this process share one renewal.
    this.#pending ??= this.#renew(options.fresh ? cached?.access_token : undefined, options.signal).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** The cached token; a keyring profile's access token is read only when it may be used (or named as refused). */
  async #storedToken(fresh: boolean): Promise<StoredToken | undefined> {
    const profile = this.#profile();
    if (profile.secrets !== 'keyring' || !profile.token || (!fresh && !this.#usable(profile.token))) return profile.token;
    return (await this.#o.config.getProfileWithSecrets(this.#o.profileName))?.token;
  }

  /**
   * Under the config lock: another process may have renewed the token while this one waited
   * for it (its refresh retired our refresh token), so the stored token is read again first
   * and used when it is good; only otherwise is a new one requested, and stored.
   */
  async #renew(refused: string | undefined, signal?: AbortSignal): Promise<string> {
    // What happened inside the transaction, for when its write fails.
    let issued: StoredToken | undefined;
    let dead: AuthError | undefined;
    let outcome: string | AuthError;
    try {
      outcome = await this.#o.config.transaction(async (config): Promise<string | AuthError> => {
        const profile = this.#profileIn(config);
        const stored = profile.token;
        this.#remember(stored);
        if (stored && this.#usable(stored) && stored.access_token !== refused) return stored.access_token;
        const grant = profile.grant ?? stored?.grant ?? 'client_credentials';
        // A token given with `auth login --with-token` has nothing to renew it by: the advice names that login.
        if (grant === 'token')
          return new AuthError(
            `${stored ? `the token of profile ${this.#o.profileName} was refused` : `profile ${this.#o.profileName} has no token`}, and a token given with --with-token cannot be renewed`,
            this.need,
          );
        let token: StoredToken;
        try {
          token =
            grant === 'authorization_code' ? await this.#refreshed(config, profile, signal) : await this.#clientCredentialsToken(profile, undefined, signal);
        } catch (error) {
          // A dead sign-in was removed from `config`: let the transaction write that, then fail.
          if (error instanceof DeadSignInError) return (dead = error);
          throw error;
        }
        this.#remember(token);
        issued = token;
        patchProfile(config, this.#o.profileName, { token, grant });
        return token.access_token;
      }, this.#secrets());
    } catch (error) {
      // The keyring would not take the new tokens: they serve this command, as with a full disk.
      if (error instanceof KeyringUnavailableError && issued) return this.#hold(issued, `the OS keyring: ${error.reason}`);
      if (!(error instanceof ConfigNotWritableError)) throw error;
      if (dead) throw dead;
      if (issued) return this.#hold(issued, `${error.what}: ${notWritableReason(error.code)}`);
      return this.#withoutSaving(refused, error, signal);
    }
    if (outcome instanceof AuthError) throw outcome;
    return outcome;
  }

  /** A token was issued and could not be saved: it serves the rest of this command. */
  #hold(token: StoredToken, why: string): string {
    this.#held = token;
    if (token.grant === 'authorization_code')
      this.#o.warn?.(
        `the rotated refresh token of profile ${this.#o.profileName} could not be saved (${why}), so it is kept in memory for this command only`,
        this.need,
      );
    else this.#o.warn?.(`the new token of profile ${this.#o.profileName} could not be saved (${why}), so it is used for this command only`);
    return token.access_token;
  }

  /**
   * The config cannot be written, and nothing was sent yet. A client-credentials token
   * retires nothing: ask for one and keep it in memory. A refresh would retire the saved
   * refresh token: use the current access token while it lasts, else stop with the sign-in intact.
   */
  async #withoutSaving(refused: string | undefined, failure: ConfigNotWritableError, signal?: AbortSignal): Promise<string> {
    const profile = (await this.#o.config.getProfileWithSecrets(this.#o.profileName)) ?? this.#profile();
    const name = this.#o.profileName;
    const grant = profile.grant ?? profile.token?.grant ?? 'client_credentials';
    if (grant === 'client_credentials')
      return this.#hold(await this.#clientCredentialsToken(profile, undefined, signal), `${failure.what}: ${notWritableReason(failure.code)}`);
    const why = `${failure.what} cannot be written (${notWritableReason(failure.code)})`;
    const current = profile.token;
    const left = current ? current.expires_at - this.#o.clock.now() : 0;
    if (current && current.access_token !== refused && left > 0) {
      this.#o.warn?.(
        `the token of profile ${name} was not renewed: ${why}, and a renewal retires the saved refresh token; using the current one (it expires in ${Math.ceil(left / 60_000)} min)`,
      );
      return current.access_token;
    }
    throw new RenewalNotSavedError(
      `could not renew the sign-in of profile ${name}: ${why}, and a renewal retires the saved refresh token, so none was sent; ${notWritableRemedy(failure.code, failure.dir)} and run the command again (the sign-in is kept)`,
    );
  }

  /** Runs the client-credentials grant and caches the result in the profile. */
  async clientCredentials(signal?: AbortSignal, scopes?: string[]): Promise<StoredToken> {
    return this.#o.config.transaction(async (config) => {
      const token = await this.#clientCredentialsToken(this.#profileIn(config), scopes, signal);
      this.#remember(token);
      patchProfile(config, this.#o.profileName, { token, grant: 'client_credentials' });
      return token;
    }, this.#secrets());
  }

  async #clientCredentialsToken(profile: Profile, scopes: string[] | undefined, signal?: AbortSignal): Promise<StoredToken> {
    const { clientId, secret } = await this.#client(profile);
    const requested = scopes ?? profile.scopes;
    return requestToken(
      this.#o.tokenHttp(),
      { grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: requested?.length ? requested.join(' ') : undefined },
      'client_credentials',
      this.#o.clock.now(),
      this.need,
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
        { profile: this.#o.profileName, grant: 'authorization_code' },
        signal,
      );
      this.#remember(token);
      patchProfile(config, this.#o.profileName, { token, grant: 'authorization_code' });
      return token;
    }, this.#secrets());
  }

  /**
   * Trades the refresh token of a browser sign-in for new tokens (the old refresh token
   * stops working). Runs inside the config transaction: `config` is the file as it is now.
   */
  async #refreshed(config: ConfigShape, profile: Profile, signal?: AbortSignal): Promise<StoredToken> {
    const name = this.#o.profileName;
    const need: LoginNeed = { profile: name, grant: 'authorization_code' };
    let current = profile.token;
    if (!current?.refresh_token) {
      throw new AuthError(`profile ${name} is not signed in${current ? ' (its token cannot be renewed)' : ''}`, need);
    }
    const { clientId, secret } = await this.#client(profile);
    for (let attempt = 1; ; attempt++) {
      try {
        const token = await requestToken(
          this.#o.tokenHttp(),
          { grant_type: 'refresh_token', client_id: clientId, client_secret: secret, refresh_token: current.refresh_token },
          'authorization_code',
          this.#o.clock.now(),
          need,
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
        throw new DeadSignInError(`the sign-in of profile ${name} could not be renewed: ${error.message}`, need);
      }
    }
  }

  /** A transaction on this profile reads its keyring secrets first (config/store.ts). */
  #secrets(): { secretsOf: string } {
    return { secretsOf: this.#o.profileName };
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
      throw new AuthError(`profile ${this.#o.profileName} has no client id (PLATFORM_CLIENT_ID can give one)`, this.need);
    }
    const secret = await this.#clientSecret(profile);
    this.#o.redactor.add(secret);
    return { clientId, secret };
  }

  async #clientSecret(profile: Profile): Promise<string> {
    const secret = clientSecretOf(this.#o.env, profile, this.#o.profileName)?.value;
    if (secret) return secret;
    if (this.#o.promptSecret) return this.#o.promptSecret(`Client secret for profile ${this.#o.profileName}`);
    throw new AuthError(`no client secret for profile ${this.#o.profileName} (PLATFORM_CLIENT_SECRET can give one)`, this.need);
  }

  #profileIn(config: ConfigShape): Profile {
    const profile = mergedProfile(config, this.#o.profileName);
    if (!profile) {
      throw new AuthError(`no profile named ${this.#o.profileName}`, { ...this.need, create: true });
    }
    return profile;
  }

  #profile(): Profile {
    const profile = this.#o.config.getProfile(this.#o.profileName);
    if (!profile) {
      throw new AuthError(`no profile named ${this.#o.profileName}`, { ...this.need, create: true });
    }
    return profile;
  }
}
