// Typed errors and the one place that maps them to exit codes (design.md: exit codes).

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 4,
  interrupted: 130,
} as const;

/** Bad flags, arguments or input: nothing was sent. Exit 2. */
export class UsageError extends Error {
  constructor(message: string, readonly usage?: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** No or refused credentials; the message names the `auth login` command to run. Exit 4. */
export class AuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthError';
  }
}

/** An API answered with an error (after retries where they apply). Exit 1. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly requestId?: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'ApiError';
  }
}

/** The service could not be reached, or kept failing, after the bounded retries. Exit 1. */
export class NetworkError extends Error {
  constructor(message: string, readonly cause?: unknown) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** Something failed that is neither usage nor API (a command's own check). Exit 1. */
export class CommandError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.failure) {
    super(message);
    this.name = 'CommandError';
  }
}

/** The user pressed Ctrl-C. Exit 130. */
export class InterruptedError extends Error {
  constructor(message = 'interrupted') {
    super(message);
    this.name = 'InterruptedError';
  }
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof AuthError) return EXIT.auth;
  if (error instanceof InterruptedError) return EXIT.interrupted;
  if (error instanceof CommandError) return error.exitCode;
  return EXIT.failure;
}

/** The one line printed for an error (no stack unless --debug). */
export function errorLine(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
