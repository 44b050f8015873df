// Defaults of `webhooks listen`, apart from its code so that help and completions load nothing else.
export const DEFAULT_MAX_BODY = 1024 * 1024;
export const DEFAULT_QUEUE_SIZE = 100;
export const DEFAULT_FORWARD_TIMEOUT_MS = 10_000;
