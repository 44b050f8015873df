// Typed errors and the one place that maps them to exit codes (README, Exit codes).

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 4,
  interrupted: 130,
} as const;

/** Bad flags, arguments or input: nothing was sent. Exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * What it takes to get past an AuthError: which profile, how it signs in, and the scopes
 * it lacks. The command layer turns it into the `auth login` command to run (advice that
 * names flags lives there, not in the API or auth layers).
 */
export interface LoginNeed {
  profile: string;
  /** token: an access token given with `auth login --with-token` (nothing renews it). */
  grant: 'client_credentials' | 'authorization_code' | 'token';
  /** Scopes the call needed and the token lacks (403). */
  scopes?: string[];
  /** Scopes the refused token had: a new sign-in asks for these too, so nothing that worked stops working. */
  held?: string[];
  /** The API that refused, when its advice differs (rider calls need a user's sign-in). */
  area?: 'rider' | 'delivery';
  /** The call used PLATFORM_SERVER_TOKEN, not the profile's token. */
  serverToken?: boolean;
  /** The profile does not exist yet: the login creates it. */
  create?: boolean;
}

/** No or refused credentials, or a missing scope; the message names the `auth login` command to run. Exit 4. */
export class AuthError extends Error {
  constructor(
    message: string,
    readonly need?: LoginNeed,
    /** The API's error code and message, when an API answer refused the call. */
    readonly answer?: { code: string; detail: string },
  ) {
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
  constructor(
    message: string,
    readonly cause?: unknown,
    /** The origin it tried to reach directly (not through a proxy), for advice about it. */
    readonly origin?: string,
  ) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** Something failed that is neither usage nor API (a command's own check). Exit 1. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

/**
 * Some items of a batch or bulk run failed; the others were applied. Exit 1. The command
 * has reported each item; the message (when not empty) is the last line on stderr.
 */
export class PartialFailureError extends Error {
  constructor(message = '') {
    super(message);
    this.name = 'PartialFailureError';
  }
}

/**
 * A file of the state or config folders (or one the user named for a run to read: a plan, a
 * journal) is not a regular file, or is larger than such a file may be: refused before it is
 * read (`src/base/state-file.ts`). Bad input, nothing was sent: exit 2.
 */
export class StateFileError extends UsageError {
  constructor(
    message: string,
    readonly file: string,
    /** What is at the path: 'symbolic link', 'FIFO', 'directory', 'character device', ... or 'too large'. */
    readonly kind: string,
  ) {
    super(message);
    this.name = 'StateFileError';
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
