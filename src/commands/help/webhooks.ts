// `platform help webhook-events` (not `webhooks`: `platform help webhooks` is the command's help): signatures, and what `webhooks listen` does in full.
import { INBOX_LIMIT } from '../../webhooks/listen-defaults.js';
import type { HelpTopic } from './topic.js';

export const webhooksTopic: HelpTopic = {
  name: 'webhook-events',
  summary: 'Webhook signatures; webhooks listen in full',
  text: () => `Webhooks (platform webhooks ...).

Signatures: deliveries are POSTs with X-Platform-Signature, the hexadecimal HMAC-SHA256 of the raw request body keyed by the application's client secret, and X-Environment (spec 6.3). The secret comes from PLATFORM_WEBHOOK_SECRET, else the client secret of the profile (PLATFORM_CLIENT_SECRET over the stored one), else a hidden prompt; it is never a command-line argument and never printed.

Event types: requests.status_changed, requests.receipt_ready, all_trips.status_changed.

listen listens on 127.0.0.1 only. Each delivery is verified over its raw body and answered 200 with an empty body; one line per event goes to stdout (time, valid|invalid, event_type, resource_id, status, event_id; NDJSON with -o json).
  - The delivery rules of spec 6.3.1 apply: a repeat of (event_type, resource id, status) is a duplicate and ignored; an older status than one already seen is flagged out of order and the latest is kept.
  - Verified, non-duplicate deliveries are forwarded byte for byte with their headers to --forward-to; --route TYPE=URL sends each event type to its own target (* for the types no other route names; --forward-to is *=URL). Forwarding runs four at a time (one resource in order), each within --forward-timeout; while --queue-size deliveries wait, new ones get 503 so that the sender retries them later.
  - Bodies over --max-body get 413 and go nowhere.
  - --save appends every delivery (headers and base64 body) to an NDJSON file that webhooks replay reads.
  - --since 2h first replays, in order and marked catch-up, the deliveries missed while no listener ran: from the sandbox's delivery log, or against a real account from this machine's inbox (those not forwarded).
  - --inspect serves the webhook inbox on 127.0.0.1 (--inspect-port, --host: anything but 127.0.0.1 exposes it to the network; printed at start, opened with --open): each delivery live with its verdict and diagnosis, headers and raw body; filters; replay to the forward target; edit and replay, re-signed, unsigned or wrongly signed; export as NDJSON (what webhooks replay reads) or HAR. The inbox keeps the newest ${INBOX_LIMIT} deliveries on disk, in the config folder, so it survives a restart.
  - Ctrl-C stops it within about a second, says how many were not forwarded, and prints the latest status per resource.

Authenticated deliveries (spec 6.3 rule 5: webhook setup offers Basic Auth or OAuth):
  - listen --basic-auth USER:PASSWORD answers 401 to a delivery without them; listen --oauth-client ID:SECRET serves a client-credentials token endpoint at POST /oauth/token on its port (tokens live --oauth-token-ttl, 300 s) and answers 401 to a missing, forged or expired Bearer token. Each line (and the inbox) says authorized or unauthorized, and why; an unauthorized delivery is never forwarded; --save and the inbox keep "Basic [REDACTED]", not the credentials.
  - trigger and replay send as the platform would: --basic-auth USER:PASSWORD, or --oauth-token-url URL --oauth-client ID:SECRET [--oauth-scopes "a b"] (the token is fetched once, through the same proxies and CAs, and kept while valid). A 401 there is final: the credentials are wrong.
  - The sandbox sends them too: sandbox serve --webhook-basic-auth, or --webhook-oauth-token-url with --webhook-oauth-client; a 401 or 403 is a failed attempt it retries as a 500, logged as an authentication failure.
  - Credentials are ID:SECRET, @FILE holding it, or PLATFORM_WEBHOOK_BASIC_AUTH / PLATFORM_WEBHOOK_OAUTH_CLIENT; never printed.

verify and replay explain themselves: platform webhooks verify --help, replay --help.
`,
};
