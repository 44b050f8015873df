// Exports of the inbox's selection: NDJSON in the capture format of `webhooks listen --save`
// (what `webhooks replay` reads), and HAR 1.2 (what browsers' and proxies' tools open), each
// delivery as the request received and the listener's 200 answer.
import { captureLine } from '../capture.js';
import { headerValue } from '../headers.js';
import type { InboxRecord } from './store.js';

export function exportNdjson(records: readonly InboxRecord[]): string {
  return records
    .map((r) =>
      captureLine({
        at: Date.parse(r.received_at),
        method: r.method,
        path: r.path,
        rawHeaders: r.headers.flat(),
        body: Buffer.from(r.body_base64, 'base64'),
      }),
    )
    .join('');
}

export function exportHar(records: readonly InboxRecord[], creatorVersion: string): string {
  const entries = records.map((r) => {
    const body = Buffer.from(r.body_base64, 'base64');
    const text = body.toString('utf8');
    const isText = Buffer.from(text, 'utf8').equals(body);
    const host = headerValue(r.headers, 'host') ?? '127.0.0.1';
    const contentType = headerValue(r.headers, 'content-type') ?? 'application/octet-stream';
    return {
      startedDateTime: r.received_at,
      time: 0,
      request: {
        method: r.method,
        url: `http://${host}${r.path}`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: r.headers.map(([name, value]) => ({ name, value })),
        queryString: [],
        // HAR has no encoding for request bodies; a body that is not UTF-8 goes as base64, said in _encoding.
        postData: isText ? { mimeType: contentType, text } : { mimeType: contentType, text: r.body_base64, _encoding: 'base64' },
        headersSize: -1,
        bodySize: body.byteLength,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'Content-Length', value: '0' }],
        content: { size: 0, mimeType: 'text/plain' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 0,
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
      comment: [r.verdict.message, r.catch_up ? 'catch-up' : ''].filter(Boolean).join('; '),
    };
  });
  return `${JSON.stringify({ log: { version: '1.2', creator: { name: 'platform webhooks listen --inspect', version: creatorVersion }, entries } }, null, 2)}\n`;
}
