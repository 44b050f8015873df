// `--http PORT`: streamable HTTP on 127.0.0.1 only. Every request must carry the bearer token
// printed at start (stderr), and a browser's Origin must be this server's own (DNS rebinding).
// One MCP server per session, so that a client's elicitation answer reaches its own call.
import http from 'node:http';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export interface HttpServing {
  url: string;
  token: string;
  closed: Promise<void>;
  close(): Promise<void>;
}

function refuse(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export async function serveHttp(port: number, makeServer: () => McpServer, signal: AbortSignal): Promise<HttpServing> {
  const token = randomBytes(24).toString('base64url');
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let own: Set<string> = new Set();
  const listener = http.createServer((req, res) => {
    void (async () => {
      const origin = req.headers.origin;
      if (origin !== undefined && !own.has(origin)) return refuse(res, 403, 'Forbidden: foreign Origin');
      if (!bearerMatches(req.headers.authorization, token)) return refuse(res, 401, 'Unauthorized: give the bearer token platform mcp printed');
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return refuse(res, 404, 'Not found: the endpoint is /mcp');
      const id = req.headers['mcp-session-id'];
      const known = typeof id === 'string' ? sessions.get(id) : undefined;
      if (known) return known.handleRequest(req, res);
      if (req.method !== 'POST') return refuse(res, 400, 'Bad request: no such session');
      const body = await readJson(req);
      if (!isInitializeRequest(body)) return refuse(res, 400, 'Bad request: no such session');
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (session) => void sessions.set(session, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await makeServer().connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (listener.address() as { port: number }).port;
  own = new Set([`http://127.0.0.1:${bound}`, `http://localhost:${bound}`]);
  const close = async () => {
    await Promise.all([...sessions.values()].map((t) => t.close()));
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  };
  const closed = new Promise<void>((resolve) => listener.once('close', () => resolve()));
  signal.addEventListener('abort', () => void close(), { once: true });
  return { url: `http://127.0.0.1:${bound}/mcp`, token, closed, close };
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 4 * 1024 * 1024) throw new Error('request body too large');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
