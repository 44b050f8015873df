// What a failed connection means, in words: an untrusted certificate or a proxy's refusal
// reads better than undici's error code. Says what happened only; src/commands/advice.ts
// says which flag fixes it.
import { connectionErrorCode } from './retry.js';

/** Verification failures a missing CA causes (not an expired certificate or a wrong host name). */
const UNTRUSTED_CERTIFICATE = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

/** The server's certificate is signed by a CA this process does not trust. */
export function isUntrustedCertificate(error: unknown): boolean {
  return UNTRUSTED_CERTIFICATE.has(connectionErrorCode(error));
}

/**
 * One phrase for the failure: an untrusted certificate, a proxy's answer, a refused connection
 * (the proxy's, when one was used: every connection goes to it), a name that does not resolve,
 * else the error's code.
 */
export function describeConnectionFailure(error: unknown, viaProxy = false): string {
  const code = connectionErrorCode(error);
  if (code === 'ECONNREFUSED') return `${viaProxy ? 'the proxy refused the connection' : 'connection refused'} (ECONNREFUSED)`;
  if (code === 'ENOTFOUND') {
    const host = hostnameOf(error);
    return `${host ? `the name ${host}` : 'the host name'} does not resolve (ENOTFOUND)`;
  }
  if (UNTRUSTED_CERTIFICATE.has(code)) return `the server's TLS certificate is not signed by a trusted CA (${code})`;
  // undici's words for a proxy that answered CONNECT (or a proxied request) with an error status.
  const status = /Proxy response \((\d{3})\)|Proxy Authentication Required \((407)\)/.exec(messagesOf(error))?.slice(1).find(Boolean);
  if (status === '407') return 'the proxy refused the credentials, or wants some (407): they go in the proxy URL, http://user:password@host:port';
  if (status) return `the proxy refused the connection (${status})`;
  return code;
}

/** The name a failed lookup asked for (Node's getaddrinfo errors carry it). */
function hostnameOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++, current = (current as { cause?: unknown }).cause) {
    const { hostname } = current as { hostname?: unknown };
    if (typeof hostname === 'string' && hostname) return hostname;
  }
  return undefined;
}

function messagesOf(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current && depth < 4; depth++, current = (current as { cause?: unknown }).cause) {
    if (current instanceof Error) messages.push(current.message);
  }
  return messages.join('\n');
}
