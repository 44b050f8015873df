// HTTP protocol answers that come before any handler: a Host that is not the sandbox's own
// (421), unknown routes and methods (404, 405), content negotiation (406 for an Accept the JSON APIs cannot meet, 415 for a body that is
// not JSON), and CORS for origins registered by an application (rider API, spec 5.11).
// Rider paths answer in the rider API's shape (spec 7.2), the others in the ads API's (7.1).
// The OAuth endpoints take forms and serve browsers: negotiation leaves them alone.
import { isRiderApiPath } from '../api/rider.js';
import { allowedOrigins } from './clients.js';
import type { IncomingHttpHeaders } from 'node:http';
import { header, type SandboxRequest, type SandboxResponse } from './http.js';

/** What the JSON APIs answer with. */
export const ACCEPTABLE_TYPES = ['application/json'] as const;
/** Headers a browser app may send to the rider API (preflight). */
const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', 'accept-language', 'idempotency-key'];
/** Response headers a browser app may read. */
const CORS_EXPOSED_HEADERS = ['x-request-id', 'retry-after', 'content-language', 'deprecation', 'sunset', 'link'];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

const isOAuthPath = (path: string) => path.startsWith('/oauth/');

function errorBody(req: SandboxRequest | string, status: number, riderCode: string, adsCode: string, message: string): SandboxResponse {
  const path = typeof req === 'string' ? req : req.path;
  return { status, body: isRiderApiPath(path) ? { message, code: riderCode } : { code: adsCode, message } };
}

/**
 * The names the sandbox answers to (lower case, no port): loopback (localhost, 127.0.0.0/8,
 * [::1]), the address it is bound to, and --public-url's host. Any other Host is a page of
 * another site whose name was rebound to this address (DNS rebinding), which must not reach
 * the API, the token endpoint, the console or the downloads with the public demo credentials.
 */
export function sandboxHosts(boundHost: string, publicUrl?: string): string[] {
  const bound = boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
  return [...new Set(['localhost', '127.0.0.1', '[::1]', bound, ...(publicUrl ? [new URL(publicUrl).hostname] : [])].map((h) => h.toLowerCase()))];
}

/** The Host header's name without its port, lower case. */
function hostName(value: string | undefined): string {
  if (!value) return '';
  const name = value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0]!;
  return name.toLowerCase();
}

/** True when the request's Host names this sandbox: one of `hosts`, or any 127.0.0.0/8 address. */
export function ownHost(headers: IncomingHttpHeaders, hosts: string[]): boolean {
  const name = hostName(headers.host);
  return hosts.includes(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** Why a request whose Host is not one of `hosts` is refused (the message of its 421). */
export function misdirectedMessage(hostHeader: string | undefined, hosts: string[]): string {
  return `This sandbox answers only at ${hosts.join(', ')} (and 127.0.0.0/8), not at host ${hostHeader ? JSON.stringify(hostHeader) : '(none)'}.`;
}

/** The answer to a request whose Host is not one of `hosts` (421 Misdirected Request, RFC 9110 15.5.20). */
export function misdirected(path: string, hostHeader: string | undefined, hosts: string[]): SandboxResponse {
  return errorBody(path, 421, 'misdirected_request', 'MisdirectedRequest', misdirectedMessage(hostHeader, hosts));
}

export function notFound(req: SandboxRequest): SandboxResponse {
  return errorBody(req, 404, 'not_found', 'NotFound', `No route for ${req.method} ${req.path}.`);
}

export function methodNotAllowed(req: SandboxRequest, allow: string[]): SandboxResponse {
  const response = errorBody(req, 405, 'method_not_allowed', 'BadRequest', `${req.method} is not allowed on ${req.path} (allowed: ${allow.join(', ')}).`);
  return { ...response, headers: { allow: allow.join(', ') } };
}

/** OPTIONS on a known path: a CORS preflight from a registered origin, else the methods allowed. */
export function options(req: SandboxRequest, allow: string[]): SandboxResponse {
  const methods = [...new Set([...allow, 'OPTIONS'])].join(', ');
  const origin = header(req, 'origin');
  if (!origin || !header(req, 'access-control-request-method')) return { status: 204, headers: { allow: methods } };
  if (!corsOrigin(req)) {
    return errorBody(req, 403, 'origin_not_allowed', 'PermissionDenied', `Origin ${origin} is not registered in any application's settings.`);
  }
  return {
    status: 204,
    headers: {
      'access-control-allow-methods': methods,
      'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(', '),
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    },
  };
}

/** 406 when the Accept header allows no JSON, 415 when a body is not JSON; undefined when both are fine. */
export function negotiate(req: SandboxRequest): SandboxResponse | undefined {
  if (isOAuthPath(req.path)) return undefined;
  const accept = header(req, 'accept');
  if (accept !== undefined && !acceptsJson(accept)) {
    const response = errorBody(
      req,
      406,
      'not_acceptable',
      // Spec 7.1 has no code of its own for it: a request format error is BadRequest (so is 415's).
      'BadRequest',
      `The Accept header (${accept}) allows none of the types this API answers with: ${ACCEPTABLE_TYPES.join(', ')}.`,
    );
    // The rider API's 406 lists the acceptable types (spec 7.2); the ads API's body is {code, message} (spec 7.1).
    return isRiderApiPath(req.path) ? { ...response, body: { ...(response.body as object), acceptable: [...ACCEPTABLE_TYPES] } } : response;
  }
  const type = header(req, 'content-type');
  if (req.body.length > 0 && !(type && isJsonType(type))) {
    return errorBody(
      req,
      415,
      'unsupported_media_type',
      'BadRequest',
      `The request body must be application/json${type ? `, not ${type}` : ' (no Content-Type was given)'}.`,
    );
  }
  return undefined;
}

/** CORS headers on every rider answer to a registered origin (spec 5.11). */
export function withCors(req: SandboxRequest, response: SandboxResponse): SandboxResponse {
  const origin = corsOrigin(req);
  if (!origin) return response;
  return {
    ...response,
    headers: { ...response.headers, 'access-control-allow-origin': origin, 'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '), vary: 'Origin' },
  };
}

/** The request's Origin when the path is the rider API's and some application registered it. */
function corsOrigin(req: SandboxRequest): string | undefined {
  const origin = header(req, 'origin');
  return origin && isRiderApiPath(req.path) && allowedOrigins().includes(origin) ? origin : undefined;
}

function isJsonType(type: string): boolean {
  const essence = type.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(essence);
}

/** True when a media range with q > 0 matches application/json (RFC 9110 12.5.1). */
function acceptsJson(accept: string): boolean {
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    return type === 'application/json' || type === 'application/*' || type === '*/*';
  });
}
