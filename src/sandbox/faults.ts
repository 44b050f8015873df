// Fault injection for API calls: targeted rules (--fault), random 500s and dropped
// connections (some after the write was applied), random 429s, a per-token
// requests-per-second limit. Every draw comes from ctx.chaos, keyed by the route and the
// request's number on it, so a chaos seed repeats the same faults at the same requests.
import { isRiderApiPath } from '../api/rider.js';
import { bearerToken } from './auth.js';
import type { SandboxContext } from './context.js';
import { ruleMatches, type FaultRule } from './fault-rules.js';
import { HttpError, json, type Handler, type SandboxRequest, type SandboxResponse } from './http.js';
import type { Router } from './router.js';

const SECOND_MS = 1000;

/**
 * A view of `router` whose routes all pass through withFaults (the API areas: ads, rider,
 * delivery); routes added to `router` itself (sandbox control routes) are never faulted.
 */
export function faultyRoutes(router: Router, ctx: SandboxContext): Router {
  const view = Object.create(router) as Router;
  view.add = (method, pattern, handler) => {
    router.add(method, pattern, withFaults(ctx, handler, `${method.toUpperCase()} ${pattern}`));
    return view;
  };
  return view;
}

/** Counts the API call and, as configured, answers it with a fault instead. */
export function withFaults(ctx: SandboxContext, handler: Handler, route = 'API'): Handler {
  const { chaos } = ctx;
  return async (req) => {
    ctx.stats.apiRequests++;
    chaos.enter(route);
    const { failRate, throttleRate, rateLimit, rules } = ctx.faults;
    if (rateLimit !== undefined && rateLimit > 0) {
      const limited = overLimit(ctx.rateWindows, bearerToken(req) ?? '', rateLimit, ctx.now());
      if (limited) {
        chaos.injected('429 (rate limit)');
        return rateLimited(limited, `at most ${rateLimit} requests per second per token`);
      }
    }
    const rule = rules.findIndex((r, i) => r.rate > 0 && ruleMatches(r, req.method, req.path) && chaos.draw(`rule ${i}`) < r.rate);
    if (rule >= 0) return ruleFault(ctx, rules[rule]!, req);
    if (throttleRate > 0 && chaos.draw('throttle') < throttleRate) {
      chaos.injected('429');
      return rateLimited(1, 'request limit exceeded (injected)');
    }
    if (failRate > 0 && chaos.draw('fail') < failRate) {
      const mode = chaos.draw('fail mode');
      if (mode < 0.5) {
        chaos.injected('500');
        return json(500, { code: 'Internal', message: 'unexpected server error (injected)' });
      }
      if (mode < 0.75) {
        chaos.injected('drop');
        return { status: 0, drop: true };
      }
      await run(handler, req); // applied, then the response is lost
      chaos.injected('drop after applying');
      return { status: 0, drop: true };
    }
    return handler(req);
  };
}

const ADS_CODES: Record<number, string> = { 400: 'BadRequest', 401: 'Unauthenticated', 403: 'PermissionDenied', 404: 'NotFound', 429: 'RateLimitExceeded' };

function ruleFault(ctx: SandboxContext, rule: FaultRule, req: SandboxRequest): SandboxResponse {
  ctx.chaos.injected(`${rule.outcome} (--fault ${rule.text})`);
  if (rule.outcome === 'drop') return { status: 0, drop: true };
  const status = rule.outcome;
  const message = `injected by --fault ${rule.text}`;
  const headers = status === 429 || status === 503 ? { 'retry-after': '1' } : undefined;
  if (isRiderApiPath(req.path))
    return json(status, { message, code: status === 429 ? 'rate_limited' : status >= 500 ? 'internal_server_error' : 'injected' }, headers);
  return json(status, { code: ADS_CODES[status] ?? (status === 503 ? 'Unavailable' : status >= 500 ? 'Internal' : 'BadRequest'), message }, headers);
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
