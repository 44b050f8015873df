// node:http plumbing: read the body, route, answer (or drop), log, count.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { SandboxContext } from './context.js';
import { HttpError, type SandboxRequest, type SandboxResponse } from './http.js';
import type { Router } from './router.js';
import { readBody } from '../http/read-body.js';

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export function createSandboxServer(router: Router, ctx: SandboxContext, log?: (line: string) => void): Server {
  const server = createServer({ keepAlive: true }, (req, res) => {
    void handle(router, ctx, req, res, log);
  });
  server.keepAliveTimeout = 30_000;
  return server;
}

async function handle(router: Router, ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, log?: (line: string) => void): Promise<void> {
  const started = performance.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://sandbox');
  let response: SandboxResponse;
  try {
    const body = await readBody(req, MAX_BODY_BYTES);
    if (!body) throw new HttpError({ status: 413, body: { code: 'BadRequest', message: `body larger than ${MAX_BODY_BYTES} bytes` } });
    response = await dispatch(router, { method, path: url.pathname, query: url.searchParams, headers: req.headers, body, params: {} });
  } catch (error) {
    response = toResponse(error);
  }
  if (ctx.faults.latencyMs > 0) await new Promise((r) => setTimeout(r, ctx.faults.latencyMs));
  ctx.stats.requests.push({ method, path: url.pathname, status: response.status });
  log?.(`${method} ${url.pathname} ${response.drop ? 'dropped' : response.status} ${Math.round(performance.now() - started)}ms`);
  if (response.drop) {
    req.socket.destroy();
    return;
  }
  const payload = response.raw ?? (response.body === undefined ? '' : JSON.stringify(response.body));
  res.writeHead(response.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'x-request-id': randomUUID(),
    ...response.headers,
  });
  res.end(payload);
}

async function dispatch(router: Router, req: SandboxRequest): Promise<SandboxResponse> {
  const match = router.match(req.method, req.path);
  if (match.kind === 'not-found') {
    return { status: 404, body: { code: 'NotFound', message: `no route for ${req.method} ${req.path}` } };
  }
  if (match.kind === 'method-not-allowed') {
    return {
      status: 405,
      body: { code: 'MethodNotAllowed', message: `${req.method} is not allowed on ${req.path} (allowed: ${match.allow.join(', ')})` },
      headers: { allow: match.allow.join(', ') },
    };
  }
  try {
    return await match.handler({ ...req, params: match.params });
  } catch (error) {
    return toResponse(error);
  }
}

function toResponse(error: unknown): SandboxResponse {
  if (error instanceof HttpError) return error.response;
  return { status: 500, body: { code: 'Internal', message: `unexpected server error: ${error instanceof Error ? error.message : String(error)}` } };
}
