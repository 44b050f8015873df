// The receiver behind `platform webhooks listen`: an HTTP server on 127.0.0.1 that checks
// each delivery's signature over the raw body, applies the delivery rules (ledger.ts),
// answers 200 with an empty body, appends the raw delivery to a capture file, and forwards
// verified, non-duplicate deliveries byte for byte, with their headers, through a bounded
// queue per target (forward-queue.ts; the target of an event type comes from its routes).
// Bodies over the size limit get 413 and go nowhere; while a target's queue is full,
// deliveries for it get 503 so that the sender retries them later. Deliveries caught up on
// (`--since`) go through the same steps without an HTTP request. The signature's verdict
// (verdict.ts) is made here, once, and goes with the delivery to the line and the inbox.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { captureLine } from './capture.js';
import { endsWithNewline } from '../base/ndjson-append.js';
import { readBody } from '../http/read-body.js';
import { readEventFields } from './events.js';
import { EventLedger } from './ledger.js';
import { endToEnd } from './http-post.js';
import { ForwardQueue, type ForwardReport } from './forward-queue.js';
import { DEFAULT_FORWARD_TIMEOUT_MS, DEFAULT_MAX_BODY, DEFAULT_QUEUE_SIZE } from './listen-defaults.js';
import { ENVIRONMENT_HEADER, type NamedSecret } from './signature.js';
import { headerPairs, headerValue, withoutCredentials } from './headers.js';
import { deliveryVerdict, verdictReason, type SignatureVerdict } from './verdict.js';
import { parseRoutes, type ForwardRoutes } from './forward-routes.js';
import { randomUUID } from 'node:crypto';
import { TOKEN_PATH, type AuthVerdict, type ReceiverAuth } from './delivery-auth-check.js';

const FORWARD_CONCURRENCY = 4;
/** How long Ctrl-C waits for forwards in flight before giving them up. */
const CLOSE_GRACE_MS = 1000;
export const LISTEN_HOST = '127.0.0.1';

export interface ReceivedEvent {
  valid: boolean;
  /** Why the signature is invalid (never the secret). */
  reason?: string;
  /** What explains a body that does not match its signature, when one of the usual changes does (`verify`'s diagnosis). */
  explanation?: string;
  event_type?: string;
  resource_id?: string;
  status?: string;
  event_id?: string;
  environment?: string;
  duplicate: boolean;
  out_of_order: boolean;
  /** The status kept for this resource (spec 6.3.1: the latest). */
  latest?: string;
  /** With --basic-auth or --oauth-client: whether the delivery's credentials passed (an unauthorized one got 401 and goes nowhere). */
  auth?: 'authorized' | 'unauthorized';
  /** Why not, when unauthorized (never a credential). */
  auth_reason?: string;
  forwarded: boolean;
  /** Replayed from a delivery log on start (`--since`), not received now. */
  catch_up?: true;
}

/** A delivery as received (or caught up on): the raw request and what was made of it. */
export interface RawDelivery {
  id: string;
  at: number;
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: Buffer;
  event: ReceivedEvent;
  /** Its signature's verdict (what `event` says of it, in full). */
  verdict: SignatureVerdict;
  /** Where it is forwarded, when it is. */
  target?: string;
}

export interface ReceiverOptions {
  port: number;
  secret: NamedSecret;
  /** The user's other secrets, tried when a body does not match (the diagnosis names the one that does). */
  alternatives?: NamedSecret[];
  maxBody?: number;
  /** Only these event types are shown, saved and forwarded (all when empty). */
  events?: readonly string[];
  forwardTo?: string;
  /** Targets per event type (--route); --forward-to is the one for every type when this is absent. */
  routes?: ForwardRoutes;
  /** Deliveries waiting to be forwarded at most (then 503). */
  queueSize?: number;
  /** How long one forward may take before it counts as failed. */
  forwardTimeoutMs?: number;
  /** Append each delivery to this NDJSON file. */
  savePath?: string;
  /** Credentials every delivery must carry (--basic-auth, --oauth-client), and the token endpoint of the latter. */
  auth?: ReceiverAuth;
  now: () => number;
  /** Each delivery shown, once answered (caught up on: once handled). */
  onEvent: (delivery: RawDelivery) => void;
  /** Chatter: refused bodies, a full queue. */
  onNotice: (line: string) => void;
  /** Each finished forward to --forward-to. */
  onForward?: (report: ForwardReport) => void;
  /** Each delivery shown (received or caught up on), with its raw request. */
  onDelivery?: (delivery: RawDelivery) => void;
}

/** A delivery to go through the receiver's steps as if it had just arrived. */
export interface CaughtUpDelivery {
  method?: string;
  path?: string;
  headers: Array<[string, string]>;
  body: Buffer;
}

export interface Receiver {
  url: string;
  ledger: EventLedger;
  routes: ForwardRoutes;
  /** Handles a delivery from a log (marked catch-up), waiting while its target's queue is full. */
  catchUp(delivery: CaughtUpDelivery): Promise<void>;
  /** Stops accepting, gives forwards in flight a moment, and says how many were never forwarded (failed, or left unsent). */
  close(): Promise<{ notForwarded: number }>;
}

export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const ledger = new EventLedger();
  const routes = options.routes ?? (parseRoutes([], options.forwardTo, [], () => undefined) as ForwardRoutes);
  const capacity = options.queueSize ?? DEFAULT_QUEUE_SIZE;
  const queues = new Map<string, ForwardQueue>();
  for (const url of routes.targets()) {
    queues.set(
      url,
      new ForwardQueue({
        url,
        capacity,
        concurrency: FORWARD_CONCURRENCY,
        timeoutMs: options.forwardTimeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS,
        now: options.now,
        onForward: options.onForward ?? (() => undefined),
      }),
    );
  }
  const saveFd = options.savePath ? openCapture(options.savePath) : undefined;

  const server = http.createServer((req, res) => {
    if (options.auth?.rule.type === 'oauth' && req.method === 'POST' && new URL(req.url ?? '/', 'http://x').pathname === TOKEN_PATH) {
      void readBody(req, maxBody).then(
        (body) => {
          const answer = options.auth!.issueToken(headerPairs(req.rawHeaders), body ?? Buffer.alloc(0));
          const text = JSON.stringify(answer.body);
          if (answer.status === 200) options.onNotice(`issued an access token at ${TOKEN_PATH} (expires in ${String(answer.body.expires_in)} s)`);
          else options.onNotice(`refused a token request at ${TOKEN_PATH}: ${String(answer.body.error)} (${answer.status})`);
          res.writeHead(answer.status, { ...answer.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }).end(text);
        },
        () => res.destroy(),
      );
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-length': '0' }).end();
      return;
    }
    void readBody(req, maxBody).then(
      (body) => {
        if (!body) {
          options.onNotice(`refused a body over ${maxBody} bytes (413): not forwarded, not saved`);
          res.writeHead(413, { 'content-length': '0' }).end();
          return;
        }
        const received = handle({ method: req.method ?? 'POST', path: req.url ?? '/', rawHeaders: req.rawHeaders, body });
        if (received === 'busy') {
          options.onNotice('the forwarding queue is full: answered 503, the sender will retry');
          res.writeHead(503, { 'retry-after': '30', 'content-length': '0' }).end();
          return;
        }
        if (received?.event.auth === 'unauthorized') res.writeHead(401, { 'www-authenticate': options.auth!.challenge(), 'content-length': '0' }).end();
        else res.writeHead(200, { 'content-length': '0' }).end();
        if (received) options.onEvent(received);
      },
      () => res.destroy(),
    );
  });

  interface Incoming {
    method: string;
    path: string;
    rawHeaders: string[];
    body: Buffer;
    catchUp?: boolean;
    /** Made at the first attempt: a catch-up that waits for a full queue tries again. */
    verdict?: SignatureVerdict;
  }

  function handle(req: Incoming): RawDelivery | 'busy' | undefined {
    const body = req.body;
    const fields = readEventFields(body) ?? {};
    if (options.events?.length && !options.events.includes(fields.event_type ?? '')) return undefined;
    // The raw values, so whitespace around them is judged as sent (Node trims parsed headers).
    const headers = headerPairs(req.rawHeaders);
    const verdict = (req.verdict ??= deliveryVerdict(headers, body, options.secret, { alternatives: options.alternatives }));
    const valid = verdict.valid;
    // A delivery caught up on from the platform's log was never sent here: it has no credentials to check.
    const auth: AuthVerdict | undefined = req.catchUp ? undefined : options.auth?.check(headers);
    const authorized = auth?.authorized !== false;
    const target = routes.targetFor(fields.event_type);
    const queue = target === undefined ? undefined : queues.get(target);
    // A full queue refuses before anything is recorded: the retry is then no duplicate.
    if (valid && authorized && queue && queue.pending >= capacity) return 'busy';
    const at = options.now();
    // Kept without the credentials of an Authorization header; forwarded with them.
    const kept = withoutCredentials(headers);
    if (saveFd !== undefined) fs.writeSync(saveFd, captureLine({ at, method: req.method, path: req.path, rawHeaders: kept.flat(), body }));
    // Only what a receiver would accept counts: an unauthorized delivery is refused, and its retry is no duplicate.
    const observation = valid && authorized ? ledger.observe(fields) : { duplicate: false, outOfOrder: false, latest: undefined };
    const forward = Boolean(valid && authorized && !observation.duplicate && queue);
    const id = randomUUID();
    if (forward) queue?.offer({ id, key: fields.resource_id ?? '', label: fields.event_id ?? 'a delivery', body, headers: endToEnd(headers) });
    const event: ReceivedEvent = {
      valid,
      ...verdictReason(verdict),
      event_type: fields.event_type,
      resource_id: fields.resource_id,
      status: fields.status,
      event_id: fields.event_id,
      environment: headerValue(headers, ENVIRONMENT_HEADER),
      duplicate: observation.duplicate,
      out_of_order: observation.outOfOrder,
      latest: observation.latest,
      ...(auth ? { auth: auth.authorized ? ('authorized' as const) : ('unauthorized' as const) } : {}),
      ...(auth && !auth.authorized ? { auth_reason: auth.reason } : {}),
      forwarded: forward,
      ...(req.catchUp ? { catch_up: true as const } : {}),
    };
    const delivery: RawDelivery = { id, at, method: req.method, path: req.path, headers: kept, body, event, verdict, ...(forward ? { target } : {}) };
    options.onDelivery?.(delivery);
    return delivery;
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
    routes,
    async catchUp(delivery) {
      const rawHeaders = delivery.headers.flat();
      const incoming: Incoming = { method: delivery.method ?? 'POST', path: delivery.path ?? '/', rawHeaders, body: delivery.body, catchUp: true };
      for (;;) {
        const received = handle(incoming);
        if (received !== 'busy') {
          if (received) options.onEvent(received);
          return;
        }
        const target = routes.targetFor(readEventFields(delivery.body)?.event_type);
        await queues.get(target ?? '')?.drained();
      }
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      let notForwarded = 0;
      if (queues.size) {
        let timer: NodeJS.Timeout | undefined;
        const drained = Promise.all([...queues.values()].map((q) => q.drained()));
        await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
        clearTimeout(timer);
        for (const queue of queues.values()) notForwarded += queue.abort();
      }
      if (saveFd !== undefined) fs.closeSync(saveFd);
      return { notForwarded };
    },
  };
}

/** The --save file, opened for appending after what earlier listeners saved (a line they left cut short is closed off). */
function openCapture(file: string): number {
  const fd = fs.openSync(file, 'a', 0o600);
  if (!endsWithNewline(file)) fs.writeSync(fd, '\n');
  return fd;
}
