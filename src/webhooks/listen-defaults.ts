// Defaults of `webhooks listen`, apart from its code so that help and completions load nothing else.
export const DEFAULT_MAX_BODY = 1024 * 1024;
export const DEFAULT_QUEUE_SIZE = 100;
export const DEFAULT_FORWARD_TIMEOUT_MS = 10_000;
/** Port of the inbox page of `listen --inspect` (ngrok's inspector is 4040; this sits beside the listener's 4011). */
export const DEFAULT_INSPECT_PORT = 4012;
/** Deliveries the inbox keeps on disk (the newest). */
export const INBOX_LIMIT = 500;
