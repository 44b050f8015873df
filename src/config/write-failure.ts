// A file that cannot be written (disk full, read-only mount, no permission) is a fact about
// the machine, not a bug: it becomes one line that says what, where and what to do, never
// a stack trace.
import { CommandError } from '../base/errors.js';

const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

/** The errno code of an error that means "this place cannot be written", else undefined. */
export function notWritableCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && code in REASONS ? code : undefined;
}

/** Why, in words, with the code: "no space left on the device (ENOSPC)". */
export function notWritableReason(code: string): string {
  return `${REASONS[code] ?? 'it failed'} (${code})`;
}

/** What to do about it, by the code. */
export function notWritableRemedy(code: string, dir: string): string {
  if (code === 'ENOSPC' || code === 'EDQUOT') return `free some space there`;
  return `make ${dir} writable`;
}

/** The config folder could not be written: exit 1 with one line. */
export class ConfigNotWritableError extends CommandError {
  constructor(
    /** What could not be written: "the config file /x/config.json". */
    readonly what: string,
    readonly dir: string,
    readonly code: string,
  ) {
    super(
      `could not write ${what}: ${notWritableReason(code)}; ${notWritableRemedy(code, dir)}, or point PLATFORM_CONFIG_DIR at a writable folder` +
        (code === 'ENOSPC' || code === 'EDQUOT' ? '' : ' (commands given PLATFORM_TOKEN, or with an unexpired cached token, need not write it)'),
    );
    this.name = 'ConfigNotWritableError';
  }
}

/** Runs `write`; an error that means the place cannot be written becomes a ConfigNotWritableError. */
export function asConfigWrite<T>(what: string, dir: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw toConfigNotWritable(error, what, dir);
  }
}

/** `error` as a ConfigNotWritableError when it means the place cannot be written; else itself. */
export function toConfigNotWritable(error: unknown, what: string, dir: string): unknown {
  if (error instanceof ConfigNotWritableError) return error;
  const code = notWritableCode(error);
  return code ? new ConfigNotWritableError(what, dir, code) : error;
}
