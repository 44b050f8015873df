// `platform help local-sandbox` (not `sandbox`: `platform help sandbox` is the command's help): what `platform sandbox serve` emulates, and its faults in full.
import type { HelpTopic } from './topic.js';

export const sandboxTopic: HelpTopic = {
  name: 'local-sandbox',
  summary: 'The sandbox: what it emulates, its faults',
  text: () => `The sandbox (platform sandbox serve) is a stateful emulator of the whole API on loopback: the ads API, OAuth (client credentials, the browser consent page, refresh), the rider API with simulated trips, delivery quotes and signed webhook deliveries, seeded with deterministic demo data (--seed; --campaigns N seeds exactly N campaigns in the first account, for benchmarks). It prints its base URL and demo credentials; the built-in "local" profile points at its default address (port 4010, or PLATFORM_SANDBOX_PORT), so other commands work against it at once. --state FILE keeps its data across restarts; platform sandbox snapshot saves and restores it by name while it runs.

Reachable from other machines: --host 0.0.0.0 with --public-url, the URL they reach it at (printed, and the host of report download URLs).

Idempotency: a write with an Idempotency-Key is applied once. The key is kept 24 hours per ad account (as Stripe keeps keys), and a repeat from any client gets the first answer (the same key with another request: 400); at most the newest 20,000 keys are kept.

Faults, to test a client against:
  --fail-rate P       answer this share of API calls with a 500 or a dropped connection
  --throttle-rate P   answer this share of API calls with 429 and Retry-After
  --item-fail-rate P  fail this share of batch items with a transient error (not applied)
  --rate-limit N      allow N requests per second per token, then 429
  --latency MS        delay every answer
  --fault RULE        a fault on one route, '[METHOD ]PATH=STATUS[:RATE]' (* is one path segment; STATUS 400-599 or drop); repeatable
  --chaos-seed N      seed of every injected fault (default: --seed): the Nth request to a route meets the same faults in every run

Time and webhooks:
  --time-scale N      run simulated time (rider trips, report jobs) N times faster than the wall clock
  --webhook-url URL   deliver ride events (spec 6) here, signed with the client secret, unless the application has its own URL
  --webhook-chaos R   deliver a share of events twice and out of order: a rate 0-1, or duplicates=RATE,reorder=RATE
`,
};
