// The sandbox's request for a client-credentials token at a receiver's token URL (deliveries
// with OAuth, spec 6.3 rule 5): fetch, as the receiver is another local server, with the
// delivery timeout.
import type { PostForm } from '../../webhooks/delivery-auth.js';

export function postTokenForm(timeoutMs = 10_000): PostForm {
  return async (url, form, headers, signal) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    }).catch((error: Error) => {
      // fetch says only "fetch failed"; the cause names it (ECONNREFUSED, ...).
      throw error.cause instanceof Error ? error.cause : error;
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  };
}
