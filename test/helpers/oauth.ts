// Drives the sandbox's authorize endpoint and consent form over HTTP, as a browser would.
import { createHash, randomBytes } from 'node:crypto';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';

export const CLIENT = { client_id: SANDBOX_DEMO_CLIENT_ID, client_secret: SANDBOX_DEMO_CLIENT_SECRET };
export const REDIRECT = 'http://127.0.0.1:53682/callback';

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(base: string, params: Record<string, string | undefined>): string {
  const url = new URL('/oauth/v2/universal/authorize', base);
  const all = { client_id: CLIENT.client_id, response_type: 'code', redirect_uri: REDIRECT, scope: 'profile', state: 'st-1', ...params };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** GET authorize without following redirects. */
export async function openAuthorize(url: string): Promise<{ status: number; location: string | null; html: string; headers: Headers }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), html: await res.text(), headers: res.headers };
}

/** Answers the consent page shown by `html` as its form would. */
export async function answerConsent(base: string, html: string, decision: 'allow' | 'deny'): Promise<URL> {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !requestId) throw new Error(`no consent form in: ${html.slice(0, 300)}`);
  const res = await fetch(new URL(action, base), { method: 'POST', redirect: 'manual', body: new URLSearchParams({ request_id: requestId, decision }) });
  if (res.status !== 302) throw new Error(`consent answered ${res.status}: ${await res.text()}`);
  return new URL(res.headers.get('location')!);
}

/** Authorize and allow: the redirect URL carrying the code. */
export async function authorizeAndAllow(base: string, params: Record<string, string | undefined> = {}): Promise<URL> {
  const page = await openAuthorize(authorizeUrl(base, params));
  if (page.status === 302) return new URL(page.location!);
  if (page.status !== 200) throw new Error(`authorize answered ${page.status}: ${page.html.slice(0, 300)}`);
  return answerConsent(base, page.html, 'allow');
}

export async function tokenRequest(
  base: string,
  fields: Record<string, string>,
  encoding: 'urlencoded' | 'multipart' = 'urlencoded',
): Promise<{ status: number; body: any }> {
  let body: URLSearchParams | FormData;
  if (encoding === 'urlencoded') body = new URLSearchParams(fields);
  else {
    body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
  }
  const res = await fetch(`${base}/oauth/v2/token`, { method: 'POST', body });
  return { status: res.status, body: await res.json() };
}
