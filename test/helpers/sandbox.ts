import { createTransport, HttpCore } from '../../src/http/core.js';
import { Redactor } from '../../src/http/redact.js';
import type { Dispatcher } from '../../src/http/transport.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';

/** The product's HTTP core against a sandbox, with a fixed token and no retries (close the dispatcher after). */
export async function httpCoreFor(url: string, token: string): Promise<{ http: HttpCore; dispatcher: Dispatcher }> {
  const dispatcher = createTransport({});
  const http = new HttpCore({
    baseUrl: url,
    dispatcher,
    clock: { now: () => Date.now(), sleep: (ms: number) => new Promise((r) => setTimeout(r, ms)) },
    tokens: { token: () => Promise.resolve(token), need: { profile: 'test', grant: 'client_credentials' } },
    redactor: new Redactor(),
    userAgent: 'platform-test',
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 },
  });
  return { http, dispatcher };
}

export async function getToken(url: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${url}/oauth/v2/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: SANDBOX_DEMO_CLIENT_ID, client_secret: SANDBOX_DEMO_CLIENT_SECRET, ...extra }),
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  body: any;
}

export async function api(
  url: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResult> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** Follows next_page_token until the last page; returns every item. */
export async function listAll(url: string, token: string, path: string, key: string, pageLimit: number): Promise<any[]> {
  const all: any[] = [];
  let pageToken: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const sep = path.includes('?') ? '&' : '?';
    const q = `${sep}page_limit=${pageLimit}${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`;
    const res = await api(url, token, 'GET', path + q);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    all.push(...res.body[key]);
    pageToken = res.body.next_page_token?.value;
    if (!pageToken) return all;
  }
  throw new Error('too many pages');
}
