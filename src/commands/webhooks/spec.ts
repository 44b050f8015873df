// `platform webhooks ...`: its commands, flags, help and examples. Data only: command code
// loads when it runs. Each command's flags type is derived from its options here.
import { CLIENT_BACKOFF_BASE, CLIENT_MAX_ATTEMPTS, MAX_ATTEMPTS } from '../../webhooks/delivery.js';
import { DEFAULT_TOLERANCE } from '../../webhooks/freshness.js';
import { DEFAULT_FORWARD_TIMEOUT_MS, DEFAULT_INSPECT_PORT, DEFAULT_MAX_BODY, DEFAULT_QUEUE_SIZE } from '../../webhooks/listen-defaults.js';
import { command, group, option, options, type ArgSpec, type FlagsOf } from '../spec.js';

const webhookBody: ArgSpec = { name: 'file', description: 'the raw request body (- or nothing: stdin)' };

/** Sending deliveries (`webhooks replay`, `webhooks trigger`): a few retries, doubling waits. */
const deliveryOptions = options(
  option({ flags: '--to <url>', description: 'the receiver URL to POST to', required: true }),
  option({ flags: '--environment <env>', description: 'X-Environment header', choices: ['sandbox', 'production'], default: 'sandbox' }),
  option({
    flags: '--backoff-base <duration>',
    description: 'wait before the second attempt, doubled before each next one (500ms, 1s, 2m; a bare number is seconds)',
    default: CLIENT_BACKOFF_BASE,
  }),
  option({
    flags: '--max-attempts <n>',
    description: `attempts per event, 1-${MAX_ATTEMPTS}; one still not accepted after them is not delivered`,
    kind: 'int',
    default: CLIENT_MAX_ATTEMPTS,
  }),
  // The earlier name stays working for scripts that use it (names are added, never renamed).
  option({ flags: '--attempts <n>', description: 'the earlier name of --max-attempts', kind: 'int', hidden: true }),
  option({ flags: '--timeout <seconds>', description: 'how long to wait for each answer before counting it as unreachable', kind: 'number', default: 10 }),
  option({ flags: '--basic-auth <user:password>', description: 'send Authorization: Basic (or @FILE; env: PLATFORM_WEBHOOK_BASIC_AUTH)' }),
  option({ flags: '--oauth-token-url <url>', description: "send a Bearer token from the receiver's token URL" }),
  option({ flags: '--oauth-client <id:secret>', description: 'its client (or @FILE; env: PLATFORM_WEBHOOK_OAUTH_CLIENT)' }),
  option({ flags: '--oauth-scopes <scopes>', description: 'scopes to ask --oauth-token-url for' }),
);
export type WebhooksReplayFlags = FlagsOf<typeof deliveryOptions>;

const webhooksVerifyOptions = options(
  option({ flags: '--signature <hex>', description: 'the X-Platform-Signature value (64 hex digits)' }),
  option({
    flags: '--headers <file>',
    description: 'a raw HTTP header block (from a proxy, curl -v or a log) holding X-Platform-Signature and X-Environment',
    file: true,
  }),
  option({ flags: '--strict', description: 'compare the value exactly as the platform sends it: 64 lowercase hex digits, nothing around them' }),
  option({
    flags: '--tolerance <duration>',
    description: "warn when a valid body's event_time is further than this from now, past or future (5m, 300s)",
    default: DEFAULT_TOLERANCE,
  }),
);
export type WebhooksVerifyFlags = FlagsOf<typeof webhooksVerifyOptions>;

const webhooksListenOptions = options(
  option({ flags: '--port <n>', description: 'port on 127.0.0.1 (0: a free one)', kind: 'int', default: 4011 }),
  option({ flags: '--forward-to <url>', description: 'forward verified deliveries here (your app)' }),
  option({ flags: '--save <file>', description: 'append each delivery to this NDJSON capture file', file: true }),
  option({
    flags: '--events <types>',
    description: 'only these event types, comma-separated',
    kind: 'list',
  }),
  option({ flags: '--max-body <bytes>', description: 'largest body accepted (else 413)', kind: 'int', default: DEFAULT_MAX_BODY }),
  option({
    flags: '--basic-auth <user:password>',
    description: 'require Authorization: Basic with these (or @FILE; env: PLATFORM_WEBHOOK_BASIC_AUTH); others get 401',
  }),
  option({
    flags: '--oauth-client <id:secret>',
    description: 'require a Bearer token issued at POST /oauth/token on this port to this client (or @FILE; env: PLATFORM_WEBHOOK_OAUTH_CLIENT)',
  }),
  option({ flags: '--oauth-token-ttl <seconds>', description: 'lifetime of the tokens --oauth-client issues (default: 300)', kind: 'int' }),
  option({
    flags: '--queue-size <n>',
    description: `most deliveries waiting; then 503 (default ${DEFAULT_QUEUE_SIZE})`,
    kind: 'int',
  }),
  option({ flags: '--forward-timeout <seconds>', description: `how long one forward may take (default ${DEFAULT_FORWARD_TIMEOUT_MS / 1000})`, kind: 'number' }),
  option({
    flags: '--route <type=url>',
    description: 'forward an event type to its own URL (repeatable)',
    kind: 'repeat',
  }),
  option({
    flags: '--since <duration>',
    description: 'first catch up on what was missed (2h, 30m)',
  }),
  option({ flags: '--inspect', description: 'serve the webhook inbox page' }),
  option({ flags: '--inspect-port <n>', description: `inbox page port (0: a free one; default ${DEFAULT_INSPECT_PORT})`, kind: 'int' }),
  option({ flags: '--host <address>', description: 'address the inbox page binds (default 127.0.0.1)' }),
  option({ flags: '--open', description: 'open the inbox page in the browser' }),
);
export type WebhooksListenFlags = FlagsOf<typeof webhooksListenOptions>;

const webhooksTriggerOptions = options(
  ...deliveryOptions,
  option({ flags: '--resource-id <id>', description: 'meta.resource_id: the ride request id (default: a new UUID)' }),
  option({ flags: '--status <status>', description: 'meta.status, e.g. accepted, in_progress, completed (default: accepted; ready for receipts)' }),
  option({ flags: '--user-id <id>', description: 'meta.user_id (default: a new UUID)' }),
);
export type WebhooksTriggerFlags = FlagsOf<typeof webhooksTriggerOptions>;

export const webhooksSpec = group({
  name: 'webhooks',
  summary: 'Verify, receive, replay and trigger webhooks',
  description:
    'Deliveries are POSTs with X-Platform-Signature: the hexadecimal HMAC-SHA256 of the raw request body, ' +
    "keyed by the application's client secret, and X-Environment (spec 6.3). The secret comes from " +
    'PLATFORM_WEBHOOK_SECRET, else the client secret of the profile (PLATFORM_CLIENT_SECRET over the stored ' +
    'one), else a hidden prompt; it is never a command-line argument and never printed.',
  examples: [
    'platform webhooks verify body.json --headers headers.txt',
    'platform webhooks listen --port 4011 --save deliveries.ndjson',
    'platform webhooks replay --to http://127.0.0.1:3000/hooks deliveries.ndjson',
  ],
  subcommands: [
    command({
      name: 'verify',
      summary: 'Check a signature against a body; exit 0 valid, 1 invalid (saying why), 2 unusable input',
      description:
        'Compares, in constant time, the signature (--signature, or X-Platform-Signature found in a raw header ' +
        'block with --headers) with the HMAC-SHA256 of the exact bytes of FILE (or stdin): no trimming, no JSON ' +
        'round trip. When they differ it tries the usual mistakes and names the one that matches: a trailing ' +
        'newline added or removed, a byte-order mark, the JSON re-serialized (pretty-printed, keys reordered), ' +
        'backslash escapes removed by a JSON parser (spec 6.3.4), or the other secret (PLATFORM_WEBHOOK_SECRET vs ' +
        "the profile's client secret). Uppercase hex or whitespace around the value still verify, with a note; " +
        '--strict treats them as the mismatch they are for a receiver comparing strings. A valid body whose ' +
        'event_time is older than --tolerance (5m), or as far in the future, gets a warning on stderr (a replayed ' +
        'delivery, or a wrong clock) and still exits 0. -o json prints the computation (body size, computed and ' +
        'given signature, secret source by name, diagnosis, event_time warning).',
      args: [webhookBody],
      options: webhooksVerifyOptions,
      examples: [
        'platform webhooks verify body.json --signature "$X_PLATFORM_SIGNATURE"',
        'platform webhooks verify body.json --headers headers.txt -o json',
        'platform webhooks verify - --signature "$(platform webhooks sign body.json)" < body.json && echo valid',
      ],
      load: () => import('./verify.js'),
    }),
    command({
      name: 'listen',
      summary: 'Receive deliveries on 127.0.0.1: verify, de-duplicate, print, forward and save them',
      description:
        'Listens on 127.0.0.1 only. Each delivery is verified over its raw body and answered 200; one line per event goes ' +
        'to stdout (NDJSON with -o json). Duplicates are ignored and an older status flagged out of order (spec 6.3.1); ' +
        'verified deliveries are forwarded as they came to --forward-to or a --route. Ctrl-C stops it. ' +
        'In full (queueing, catch-up, the inbox page): platform help webhook-events.',
      options: webhooksListenOptions,
      examples: [
        'platform webhooks listen --port 4011 --forward-to http://127.0.0.1:3000/webhooks',
        'platform webhooks listen --inspect --open --route requests.receipt_ready=http://127.0.0.1:3000/receipts --route "*=http://127.0.0.1:3000/webhooks"',
        'platform webhooks listen --since 2h --forward-to http://127.0.0.1:3000/webhooks',
        'platform webhooks listen --save deliveries.ndjson --events requests.status_changed -o json',
        'platform sandbox serve --webhook-url http://127.0.0.1:4011/ & platform webhooks listen --profile local',
      ],
      load: () => import('./listen.js'),
    }),
    command({
      name: 'replay',
      summary: 'Resend captured deliveries or event JSON, re-signed, in order, with retries',
      description:
        'Reads a capture file of `webhooks listen --save` (NDJSON) or hand-written events (one JSON object, an ' +
        'array, or NDJSON) from FILE or stdin and POSTs each body, re-signed with the secret, with X-Environment, ' +
        'in order. An unreachable URL (but a name that does not resolve, or a proxy that refuses), a timeout or a 5xx answer is retried: --max-attempts (3) attempts, waiting ' +
        '--backoff-base (1s) and then twice as long each time (1 s, 2 s), so a dead receiver costs seconds per ' +
        "event. (The platform's own schedule, spec 6.3.3, is 7 attempts 30 s apart and doubling; the sandbox " +
        'follows it.) A 2xx is accepted; a 4xx is final. Prints one line per event (retries on stderr), and at ' +
        'the end how many were not delivered; exit 1 if any was not.',
      args: [{ name: 'file', description: 'capture file or event JSON (- or nothing: stdin)' }],
      options: deliveryOptions,
      examples: [
        'platform webhooks replay --to http://127.0.0.1:3000/webhooks deliveries.ndjson',
        'platform webhooks replay --to http://127.0.0.1:3000/webhooks --max-attempts 7 --backoff-base 30s event.json',
        'grep receipt_ready deliveries.ndjson | platform webhooks replay --to http://127.0.0.1:3000/webhooks -',
      ],
      load: () => import('./replay.js'),
    }),
    command({
      name: 'trigger',
      summary: 'Send one signed test event of a type, with a fresh event_id and event_time',
      description:
        'Builds a valid payload of spec 6.1 (event_id, event_time, event_type, meta {user_id, resource_id, ' +
        'resource_type, status}, resource_href) and sends it signed, retried like `webhooks replay`. The status ' +
        'defaults to accepted, or ready for requests.receipt_ready.',
      args: [
        {
          name: 'event-type',
          description: 'requests.status_changed, requests.receipt_ready or all_trips.status_changed',
          required: true,
          choices: ['requests.status_changed', 'requests.receipt_ready', 'all_trips.status_changed'],
        },
      ],
      options: webhooksTriggerOptions,
      examples: [
        'platform webhooks trigger requests.status_changed --to http://127.0.0.1:4011/ --status in_progress',
        'platform webhooks trigger requests.receipt_ready --to http://127.0.0.1:3000/webhooks --resource-id 8f1c2a',
      ],
      load: () => import('./trigger.js'),
    }),
    command({
      name: 'sign',
      summary: 'Print the signature of a body: hex HMAC-SHA256 keyed by the webhook secret',
      args: [webhookBody],
      examples: ['PLATFORM_WEBHOOK_SECRET=s3cret platform webhooks sign body.json', 'printf \'{"event_id":"1"}\' | platform webhooks sign -'],
      load: () => import('./sign.js'),
    }),
  ],
});
