// Keeps secrets out of --debug traces: known secret values (tokens, client secret,
// authorization code, PKCE verifier) are masked wherever they appear, by value; so are the
// values of headers whose name says they carry a credential, and of the credential fields of
// JSON bodies and forms. Ordinary fields (an API error's `code`) stay readable.

/** JSON fields that hold credentials. `code` is not one: API errors use it; the OAuth code is masked by value. */
// report_url is a pre-signed download link: whoever holds it has the report.
const SECRET_JSON_FIELDS = ['access_token', 'refresh_token', 'client_secret', 'code_verifier', 'password', 'id_token', 'report_url'];
/** Form and query parameters that hold credentials (the token endpoint's `code` among them). */
const SECRET_FORM_FIELDS = [...SECRET_JSON_FIELDS, 'code'];
/** A header whose name says authorization, token, secret, key, cookie or signature carries a credential. */
const SECRET_HEADER = /authorization|token|secret|key|cookie|signature/i;
export const REDACTED = '[REDACTED]';

export class Redactor {
  readonly #secrets = new Set<string>();

  /** Remembers a secret value so that it is masked in any text later. */
  add(secret: string | undefined): void {
    if (secret && secret.length >= 4) this.#secrets.add(secret);
  }

  header(name: string, value: string): string {
    if (!SECRET_HEADER.test(name)) return this.text(value);
    const scheme = /^(Bearer|Basic|Token)\s/i.exec(value)?.[1];
    return scheme ? `${scheme} ${REDACTED}` : REDACTED;
  }

  /** Masks known secrets and credential-bearing JSON or form fields in a body. */
  text(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join(REDACTED);
    for (const field of SECRET_JSON_FIELDS) {
      out = out.replace(new RegExp(`("${field}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g'), `$1"${REDACTED}"`);
    }
    for (const field of SECRET_FORM_FIELDS) {
      out = out.replace(new RegExp(`(^|[?&])(${field}=)[^&\\s]*`, 'g'), `$1$2${REDACTED}`);
    }
    return out;
  }
}
