// A report server scripted to answer what the sandbox never would (a short body, a hostile
// report id, a file that appears at --out mid-download), for the tests of report files.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '../../src/sandbox/index.js';
import { TestUser } from './cli.js';

/** A report server that answers one COMPLETED report with `body`, announcing `fileSize` bytes. */
export async function scriptedReports(options: {
  id: string;
  body: string;
  fileSize: number;
  onDownload?: () => void;
  /** Send the first half of the body, then hold the connection open (a download under way, to be killed). */
  stall?: boolean;
}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname.endsWith('/reporting/report')) return json(200, { report_id: options.id });
    if (req.method === 'GET' && url.pathname.startsWith('/v1/ads/')) {
      const { port } = server.address() as AddressInfo;
      return json(200, {
        status: 'COMPLETED',
        result: {
          success_result: {
            report_url: `http://127.0.0.1:${port}/files/report.csv?sig=x`,
            file_size: String(options.fileSize),
            url_expires_at: new Date(Date.now() + 300_000).toISOString(),
            report_schema: ['campaign_id', 'clicks'],
          },
        },
      });
    }
    if (url.pathname === '/files/report.csv') {
      options.onDownload?.();
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': Buffer.byteLength(options.body) });
      if (options.stall) return res.write(options.body.slice(0, options.body.length / 2));
      return res.end(options.body);
    }
    json(404, { code: 'NOT_FOUND', message: 'no route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    user: new TestUser({ url } as Sandbox, { PLATFORM_TOKEN: 'scripted-token' }),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
