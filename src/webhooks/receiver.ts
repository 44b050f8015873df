// The receiver behind `platform webhooks listen`: an HTTP server on 127.0.0.1 that checks
// each delivery's signature over the raw body, applies the delivery rules (ledger.ts),
// answers 200 with an empty body, appends the raw delivery to a capture file, and forwards
// verified, non-duplicate deliveries byte for byte, with their headers, one at a time in
// arrival order. Bodies over the size limit get 413 and go nowhere.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { captureLine } from './capture.js';
import { readBody } from '../http/read-body.js';
import { readEventFields } from './events.js';
import { matches } from './hmac.js';
import { EventLedger } from './ledger.js';
import { endToEnd, postOnce } from './http-post.js';
import { ENVIRONMENT_HEADER, parseSignature, SIGNATURE_HEADER } from './signature.js';

export const DEFAULT_MAX_BODY = 1024 * 1024;
export const LISTEN_HOST = '127.0.0.1';

export interface ReceivedEvent {
  valid: boolean;
  /** Why the signature is invalid (never the secret). */
  reason?: string;
  event_type?: string;
  resource_id?: string;
  status?: string;
  event_id?: string;
  environment?: string;
  duplicate: boolean;
  out_of_order: boolean;
  /** The status kept for this resource (spec 6.3.1: the latest). */
  latest?: string;
  forwarded: boolean;
}

export interface ReceiverOptions {
  port: number;
  secret: string;
  maxBody?: number;
  /** Only these event types are shown, saved and forwarded (all when empty). */
  events?: readonly string[];
  forwardTo?: string;
  /** Append each delivery to this NDJSON file. */
  savePath?: string;
  now: () => number;
  onEvent: (event: ReceivedEvent) => void;
  /** Chatter: refused bodies, forwarding failures. */
  onNotice: (line: string) => void;
}

export interface Receiver {
  url: string;
  ledger: EventLedger;
  /** Stops accepting, waits for forwards in flight. */
  close(): Promise<void>;
}

export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const ledger = new EventLedger();
  let forwarding: Promise<void> = Promise.resolve();
  const saveFd = options.savePath ? fs.openSync(options.savePath, 'a', 0o600) : undefined;

  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-length': '0' }).end();
      return;
    }
    void readBody(req, maxBody).then((body) => {
      if (!body) {
        options.onNotice(`refused a body over ${maxBody} bytes (413): not forwarded, not saved`);
        res.writeHead(413, { 'content-length': '0' }).end();
        return;
      }
      const received = handle(req, body);
      res.writeHead(200, { 'content-length': '0' }).end();
      if (received) options.onEvent(received);
    }, () => res.destroy());
  });

  function handle(req: http.IncomingMessage, body: Buffer): ReceivedEvent | undefined {
    const fields = readEventFields(body) ?? {};
    if (options.events?.length && !options.events.includes(fields.event_type ?? '')) return undefined;
    const header = headerValue(req, SIGNATURE_HEADER);
    let valid = false;
    let reason: string | undefined;
    if (header === undefined) reason = `no ${SIGNATURE_HEADER} header`;
    else {
      const parsed = parseSignature(header);
      if (!parsed.ok) reason = `${SIGNATURE_HEADER} ${parsed.problem}`;
      else if (matches(body, options.secret, parsed.signature.bytes)) valid = true;
      else reason = 'the HMAC-SHA256 of the body does not match (run `platform webhooks verify` on the saved delivery to see why)';
    }
    if (saveFd !== undefined) fs.writeSync(saveFd, captureLine({ at: options.now(), method: req.method ?? 'POST', path: req.url ?? '/', rawHeaders: req.rawHeaders, body }));
    const observation = valid ? ledger.observe(fields) : { duplicate: false, outOfOrder: false, latest: undefined };
    const forward = Boolean(valid && !observation.duplicate && options.forwardTo);
    if (forward) {
      const headers: Array<[string, string]> = [];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
      const label = fields.event_id ?? 'a delivery';
      forwarding = forwarding.then(async () => {
        const result = await postOnce(options.forwardTo!, body, endToEnd(headers));
        if ('error' in result) options.onNotice(`forward of ${label} to ${options.forwardTo} failed: ${result.error}`);
        else if (result.status < 200 || result.status >= 300) options.onNotice(`forward of ${label} to ${options.forwardTo}: HTTP ${result.status}`);
      });
    }
    return {
      valid,
      ...(reason ? { reason } : {}),
      event_type: fields.event_type,
      resource_id: fields.resource_id,
      status: fields.status,
      event_id: fields.event_id,
      environment: headerValue(req, ENVIRONMENT_HEADER),
      duplicate: observation.duplicate,
      out_of_order: observation.outOfOrder,
      latest: observation.latest,
      forwarded: forward,
    };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LISTEN_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${LISTEN_HOST}:${port}`,
    ledger,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await forwarding;
      if (saveFd !== undefined) fs.closeSync(saveFd);
    },
  };
}

function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  // The raw value, so whitespace around it is judged as sent (Node trims parsed headers).
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === name.toLowerCase()) return req.rawHeaders[i + 1];
  }
  return undefined;
}
