// How a webhook delivery authenticates to its receiver (spec 6.3 rule 5: "Webhook setup offers
// Basic Auth or OAuth; for OAuth the settings are delivery URL, authentication type, client
// ID, client secret, token URL and scopes"). Basic sends the same header on every attempt.
// OAuth gets a client-credentials token from the receiver's token URL (RFC 6749 4.4, the
// client authenticated with HTTP Basic as 2.3.1 recommends), keeps it until shortly before it
// expires, and gets a new one once when the receiver answers 401 to a kept token. The sandbox's
// deliveries and `webhooks trigger`/`replay` use this; `webhooks listen` checks it
// (delivery-auth-check.ts).

export type DeliveryAuth =
  { type: 'basic'; user: string; password: string } | { type: 'oauth'; tokenUrl: string; clientId: string; clientSecret: string; scopes?: string };

/** What the settings show: never a password or a client secret. */
export function describeAuth(auth: DeliveryAuth | undefined): string {
  if (!auth) return 'none';
  if (auth.type === 'basic') return `basic (user ${auth.user})`;
  return `oauth (client ${auth.clientId} at ${auth.tokenUrl}${auth.scopes ? `, scopes ${auth.scopes}` : ''})`;
}

/** `ID:SECRET` (or `USER:PASSWORD`), split at the first colon; a string naming `what` when it is not one. */
export function parsePair(text: string, what: string): { id: string; secret: string } | string {
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return `${what}: expected ID:SECRET (both non-empty, split at the first colon)`;
  return { id: text.slice(0, colon), secret: text.slice(colon + 1) };
}

export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/** One POST of a form to a token endpoint: its status and parsed JSON body (undefined when none). */
export type PostForm = (
  url: string,
  form: URLSearchParams,
  headers: Record<string, string>,
  signal?: AbortSignal,
) => Promise<{ status: number; body: unknown }>;

/** A token is renewed this long before its expiry (at most a tenth of its life), so that it does not expire in flight. */
const EXPIRY_MARGIN_MS = 5_000;

/** Why no Authorization header could be made (the attempt fails, and is retried like any other). */
export class DeliveryAuthError extends Error {}

export class DeliveryAuthorizer {
  /** The kept token, and when it is renewed (before its expiry). */
  #token: { value: string; expiresAt: number } | undefined;
  #fetching: Promise<string> | undefined;
  /** Tokens fetched so far (tests and the sandbox's log: once per expiry, not per delivery). */
  tokenFetches = 0;

  constructor(
    readonly auth: DeliveryAuth,
    private readonly o: { postForm: PostForm; now: () => number },
  ) {}

  /** The Authorization header value for the next attempt. */
  async authorization(signal?: AbortSignal): Promise<string> {
    const auth = this.auth;
    if (auth.type === 'basic') return basicAuthorization(auth.user, auth.password);
    if (this.#token && this.o.now() < this.#token.expiresAt) return `Bearer ${this.#token.value}`;
    // Deliveries waiting at once share one fetch.
    this.#fetching ??= this.#fetch(auth, signal).finally(() => (this.#fetching = undefined));
    return `Bearer ${await this.#fetching}`;
  }

  /** Whether a kept token was refused: it is dropped, and the caller tries once more with a new one. */
  refused(authorization: string): boolean {
    if (this.auth.type !== 'oauth' || !this.#token || authorization !== `Bearer ${this.#token.value}`) return false;
    this.#token = undefined;
    return true;
  }

  async #fetch(auth: Extract<DeliveryAuth, { type: 'oauth' }>, signal?: AbortSignal): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (auth.scopes) form.set('scope', auth.scopes);
    this.tokenFetches++;
    let answer: { status: number; body: unknown };
    try {
      answer = await this.o.postForm(auth.tokenUrl, form, { authorization: basicAuthorization(auth.clientId, auth.clientSecret) }, signal);
    } catch (error) {
      throw new DeliveryAuthError(`token URL ${auth.tokenUrl}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const body = (answer.body ?? {}) as { access_token?: unknown; expires_in?: unknown; error?: unknown };
    if (answer.status !== 200 || typeof body.access_token !== 'string' || body.access_token === '') {
      const why = typeof body.error === 'string' ? ` (${body.error})` : '';
      throw new DeliveryAuthError(`token URL ${auth.tokenUrl}: HTTP ${answer.status}${why}, no access_token`);
    }
    // No expires_in (it is only RECOMMENDED): kept for an hour, and a 401 renews it anyway.
    const seconds = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
    this.#token = { value: body.access_token, expiresAt: this.o.now() + seconds * 1000 - Math.min(EXPIRY_MARGIN_MS, seconds * 100) };
    return body.access_token;
  }
}
