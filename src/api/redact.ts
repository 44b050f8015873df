// Keeps secrets out of --debug traces: known secret values are masked wherever they
// appear, and so are the values of fields and headers that carry credentials.

const SECRET_FIELDS = ['access_token', 'refresh_token', 'client_secret', 'code', 'code_verifier', 'password', 'id_token'];
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-platform-signature']);
export const REDACTED = '[REDACTED]';

export class Redactor {
  readonly #secrets = new Set<string>();

  /** Remembers a secret value so that it is masked in any text later. */
  add(secret: string | undefined): void {
    if (secret && secret.length >= 4) this.#secrets.add(secret);
  }

  header(name: string, value: string): string {
    if (!SECRET_HEADERS.has(name.toLowerCase())) return this.text(value);
    const scheme = /^(Bearer|Basic|Token)\s/i.exec(value)?.[1];
    return scheme ? `${scheme} ${REDACTED}` : REDACTED;
  }

  /** Masks known secrets and credential-bearing JSON or form fields in a body. */
  text(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join(REDACTED);
    for (const field of SECRET_FIELDS) {
      out = out
        .replace(new RegExp(`("${field}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g'), `$1"${REDACTED}"`)
        .replace(new RegExp(`(^|[?&])(${field}=)[^&\\s]*`, 'g'), `$1$2${REDACTED}`);
    }
    return out;
  }
}
