// The request for a client-credentials token at a receiver's token URL (deliveries with
// OAuth, spec 6.3 rule 5): over the HTTP transport of `webhooks trigger` and `replay` (its
// proxies and CAs), or directly (the sandbox's own deliveries), within the delivery timeout.
import type { PostForm } from './delivery-auth.js';
import type { HttpTransport } from '../http/transport.js';

export function postTokenForm(transport: HttpTransport | undefined, timeoutMs = 10_000): PostForm {
  return async (url, form, headers, signal) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const options = {
      method: 'POST' as const,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    };
    let status: number;
    let text: string;
    if (transport) {
      const { origin, pathname, search } = new URL(url);
      const answer = await transport.dispatcher.request({ ...options, origin, path: pathname + search });
      status = answer.statusCode;
      text = await answer.body.text();
    } else {
      const answer = await fetch(url, options).catch((error: Error) => {
        // fetch says only "fetch failed"; the cause names it (ECONNREFUSED, ...).
        throw error.cause instanceof Error ? error.cause : error;
      });
      status = answer.status;
      text = await answer.text();
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status, body };
  };
}
