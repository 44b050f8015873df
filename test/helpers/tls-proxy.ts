// A corporate network in miniature, for proxy and CA tests: a throwaway CA (openssl) and a
// server certificate it signs; an HTTPS front that serves the sandbox (API, token endpoint,
// rider API and report downloads) under that certificate; and a forward proxy that tunnels
// CONNECT, forwards absolute-form HTTP requests, logs both and may require credentials.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { Sandbox } from '../../src/sandbox/index.js';

/** The host name the front's certificate is for; only the proxy can resolve it (to 127.0.0.1). */
export const FRONT_HOST = 'api.platform.test';

export interface TestCa {
  /** The CA certificate (PEM): what --ca-file names. */
  caFile: string;
  /** The front's key and certificate, signed by the CA, for FRONT_HOST, localhost and 127.0.0.1. */
  key: string;
  cert: string;
}

/** A new CA and a server certificate it signs, in `dir` (openssl; EC keys, valid two days). */
export function makeTestCa(dir: string): TestCa {
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ecKey, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=platform test CA');
  openssl('req', ...ecKey, '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${FRONT_HOST}`);
  fs.writeFileSync(file('server.ext'), `subjectAltName=DNS:${FRONT_HOST},DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  );
  return { caFile: file('ca.pem'), key: fs.readFileSync(file('server.key'), 'utf8'), cert: fs.readFileSync(file('server.pem'), 'utf8') };
}

export interface Front {
  port: number;
  /** Every request that reached the front: method, path and the Host it named. */
  requests: Array<{ method: string; path: string; host: string }>;
  close(): Promise<void>;
}

/**
 * An HTTPS server in front of the sandbox: /reports/... goes to its download origin, the rest
 * to its API; in JSON answers the download origin becomes this front, so report URLs are
 * https:// ones on the same certificate.
 */
export async function startTlsFront(sandbox: Sandbox, ca: TestCa): Promise<Front> {
  const requests: Front['requests'] = [];
  const server = https.createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    const host = req.headers.host ?? '';
    const target = req.url?.startsWith('/reports/') ? sandbox.downloadUrl : sandbox.url;
    requests.push({ method: req.method ?? '', path: req.url ?? '', host });
    const upstream = http.request(`${target}${req.url ?? '/'}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      if (!/json/.test(answer.headers['content-type'] ?? '')) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        return void answer.pipe(res);
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.from(Buffer.concat(chunks).toString('utf8').split(sandbox.downloadUrl).join(`https://${host}`));
        const headers = { ...answer.headers, 'content-length': String(body.length) };
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, headers).end(body);
      });
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, requests, close: closer(server) };
}

export interface ProxyLogEntry {
  /** CONNECT (a tunnel) or the method of an absolute-form request. */
  method: string;
  /** host:port of a tunnel, the absolute URL of a forwarded request. */
  target: string;
  proxyAuthorization?: string;
  /** Answered 407. */
  refused: boolean;
}

export interface ForwardProxy {
  url: string;
  log: ProxyLogEntry[];
  /** The CONNECT tunnels it opened (407s not counted). */
  tunnels(): ProxyLogEntry[];
  close(): Promise<void>;
}

/**
 * A forward proxy: CONNECT tunnels and absolute-form HTTP requests, each logged. FRONT_HOST
 * resolves to 127.0.0.1 here only. With `credentials` (user:password), anything without
 * Proxy-Authorization: Basic of them gets a 407.
 */
export async function startForwardProxy(options: { credentials?: string } = {}): Promise<ForwardProxy> {
  const log: ProxyLogEntry[] = [];
  const expected = options.credentials && `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const allowed = (req: http.IncomingMessage) => !expected || req.headers['proxy-authorization'] === expected;
  const resolveHost = (host: string) => (host === FRONT_HOST ? '127.0.0.1' : host);
  const entry = (req: http.IncomingMessage): ProxyLogEntry => {
    const logged = { method: req.method ?? '', target: req.url ?? '', proxyAuthorization: req.headers['proxy-authorization'], refused: !allowed(req) };
    log.push(logged);
    return logged;
  };
  const tunnelSockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    if (entry(req).refused) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers, host: target.host };
    delete headers['proxy-authorization'];
    const upstream = http.request(
      { host: resolveHost(target.hostname), port: target.port || 80, path: target.pathname + target.search, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    if (entry(req).refused) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
    const [host = '', port = ''] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = net.connect(Number(port), resolveHost(host), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      tunnelSockets.add(socket);
      socket.on('close', () => tunnelSockets.delete(socket));
    }
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    log,
    tunnels: () => log.filter((e) => e.method === 'CONNECT' && !e.refused),
    close: async () => {
      for (const socket of tunnelSockets) socket.destroy();
      await closer(server)();
    },
  };
}

function closer(server: http.Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}
