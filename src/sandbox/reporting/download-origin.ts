// The download origin of completed reports: a second HTTP server on its own port, as a real
// API serves report files from a storage host and not from the API host. A URL carries an
// unguessable token and works until its expiry on the sandbox clock; after that, or for a
// token never issued, the answer is 403 (as a storage host answers an expired signed URL).
// Every request is logged (method, path, headers) so tests can see what reached it.
import type { FileHandle } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { misdirectedMessage, ownHost } from '../protocol.js';

export interface DownloadRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The status answered. */
  status?: number;
}

export interface DownloadFile {
  /** An open handle (the file itself is already unlinked); read by position, never closed here. */
  handle: FileHandle;
  size: number;
  /** Offered file name (Content-Disposition). */
  name: string;
}

interface Grant {
  file: DownloadFile;
  expiresAt: number;
}

const PREFIX = '/reports/';

export class DownloadOrigin {
  readonly requests: DownloadRequest[] = [];
  private readonly grants = new Map<string, Grant>();
  private readonly server: Server;
  private origin = '';
  /** The host names answered (protocol.ts sandboxHosts); set by listen(). */
  private hosts: string[] | undefined;

  constructor(private readonly now: () => number) {
    this.server = createServer((req, res) => {
      const method = (req.method ?? 'GET').toUpperCase();
      const path = new URL(req.url ?? '/', 'http://download').pathname;
      const logged: DownloadRequest = { method, path, headers: { ...req.headers } };
      this.requests.push(logged);
      const deny = (status: number, code: string, message: string) => {
        logged.status = status;
        const body = JSON.stringify({ code, message });
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(method === 'HEAD' ? undefined : body);
      };
      if (this.hosts && !ownHost(req.headers, this.hosts)) return deny(421, 'MisdirectedRequest', misdirectedMessage(req.headers.host, this.hosts));
      if (method !== 'GET' && method !== 'HEAD') return deny(405, 'MethodNotAllowed', `${method} is not allowed; use GET`);
      const grant = path.startsWith(PREFIX) ? this.grants.get(path.slice(PREFIX.length)) : undefined;
      if (!grant) return deny(403, 'PermissionDenied', 'invalid download URL');
      if (this.now() >= grant.expiresAt) return deny(403, 'PermissionDenied', 'the download URL has expired; get the report again for a fresh URL');
      logged.status = 200;
      res.writeHead(200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-length': String(grant.file.size),
        'content-disposition': `attachment; filename="${grant.file.name}"`,
        'cache-control': 'private, no-store',
      });
      if (method === 'HEAD') return res.end();
      const stream = readFile(grant.file);
      stream.on('error', () => res.destroy());
      res.on('close', () => stream.destroy());
      stream.pipe(res);
    });
  }

  /**
   * Listens on `host`; URLs name `publicHost` instead when given (`sandbox serve --public-url`:
   * a wildcard address is no URL). A request whose Host is not one of `hosts` gets 421.
   */
  async listen(host: string, publicHost = host, hosts?: string[]): Promise<void> {
    this.hosts = hosts;
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const port = (this.server.address() as AddressInfo).port;
    this.origin = `http://${publicHost.includes(':') && !publicHost.startsWith('[') ? `[${publicHost}]` : publicHost}:${port}`;
  }

  /** The origin, e.g. http://127.0.0.1:53121. */
  get url(): string {
    return this.origin;
  }

  /** A fresh unguessable URL for `file`, valid until `expiresAt` (sandbox clock). */
  issue(file: DownloadFile, expiresAt: number): string {
    const token = randomBytes(24).toString('base64url');
    this.grants.set(token, { file, expiresAt });
    return `${this.origin}${PREFIX}${token}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

const CHUNK_BYTES = 1 << 20;

/**
 * The file's bytes by positional reads on its shared handle. (An fs read stream closes its
 * descriptor when destroyed, even with autoClose off, and the next download needs it.)
 */
function readFile(file: DownloadFile): Readable {
  return Readable.from(
    (async function* () {
      for (let pos = 0; pos < file.size;) {
        const buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, file.size - pos));
        const { bytesRead } = await file.handle.read(buf, 0, buf.length, pos);
        if (bytesRead === 0) return;
        pos += bytesRead;
        yield buf.subarray(0, bytesRead);
      }
    })(),
    { objectMode: false },
  );
}
