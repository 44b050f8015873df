// Fault injection for ads API calls: random 500s and dropped connections (some after the
// write was applied), random 429s, a per-token requests-per-second limit.
import { bearerToken } from './auth.js';
import type { SandboxContext } from './context.js';
import { HttpError, json, type Handler, type SandboxResponse } from './http.js';
import type { Router } from './router.js';

const SECOND_MS = 1000;

/**
 * A view of `router` whose routes all pass through withFaults (the API areas: ads, rider,
 * delivery); routes added to `router` itself (sandbox control routes) are never faulted.
 */
export function faultyRoutes(router: Router, ctx: SandboxContext): Router {
  const view = Object.create(router) as Router;
  view.add = (method, pattern, handler) => {
    router.add(method, pattern, withFaults(ctx, handler));
    return view;
  };
  return view;
}

/** Counts the API call and, as configured, answers it with a fault instead. */
export function withFaults(ctx: SandboxContext, handler: Handler): Handler {
  const windows = new Map<string, number[]>();
  return async (req) => {
    ctx.stats.apiRequests++;
    const { failRate, throttleRate, rateLimit } = ctx.faults;
    if (rateLimit !== undefined && rateLimit > 0) {
      const limited = overLimit(windows, bearerToken(req) ?? '', rateLimit, ctx.now());
      if (limited) return rateLimited(limited, `at most ${rateLimit} requests per second per token`);
    }
    if (throttleRate > 0 && ctx.random() < throttleRate) return rateLimited(1, 'request limit exceeded (injected)');
    if (failRate > 0 && ctx.random() < failRate) {
      const mode = ctx.random();
      if (mode < 0.5) return json(500, { code: 'Internal', message: 'unexpected server error (injected)' });
      if (mode < 0.75) return { status: 0, drop: true };
      await run(handler, req); // applied, then the response is lost
      return { status: 0, drop: true };
    }
    return handler(req);
  };
}

async function run(handler: Handler, req: Parameters<Handler>[0]): Promise<SandboxResponse | undefined> {
  try {
    return await handler(req);
  } catch (error) {
    if (error instanceof HttpError) return error.response;
    return undefined;
  }
}

function rateLimited(retryAfterSeconds: number, message: string): SandboxResponse {
  return json(429, { code: 'RateLimitExceeded', message }, { 'retry-after': String(retryAfterSeconds) });
}

/** Sliding one-second window; returns the Retry-After seconds when over the limit. */
function overLimit(windows: Map<string, number[]>, key: string, limit: number, now: number): number | undefined {
  const recent = (windows.get(key) ?? []).filter((t) => t > now - SECOND_MS);
  if (recent.length >= limit) {
    windows.set(key, recent);
    return Math.max(1, Math.ceil((recent[0]! + SECOND_MS - now) / 1000));
  }
  recent.push(now);
  windows.set(key, recent);
  return undefined;
}
