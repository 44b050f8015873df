// Request/response shapes shared by the router, the handlers and the server.
import type { IncomingHttpHeaders } from 'node:http';

export interface SandboxRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Values of the `{param}` segments of the matched route. */
  params: Record<string, string>;
}

export interface SandboxResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Destroy the socket instead of answering (an emulated network failure). */
  drop?: boolean;
  /** A body sent as is instead of JSON (the consent page's HTML); set its content-type in headers. */
  raw?: string;
}

export type Handler = (req: SandboxRequest) => SandboxResponse | Promise<SandboxResponse>;

/** Thrown by handlers to answer with an error; the server turns it into the response. */
export class HttpError extends Error {
  constructor(readonly response: SandboxResponse) {
    super(`HTTP ${response.status}`);
  }
}

export function json(status: number, body: unknown, headers?: Record<string, string>): SandboxResponse {
  return { status, body, headers };
}

/** Ads API error body (spec 7.1): {code, message}. */
export function adsError(status: number, code: string, message: string, headers?: Record<string, string>): HttpError {
  return new HttpError({ status, body: { code, message }, headers });
}

export function header(req: SandboxRequest, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
