// The one line a command that fails ends with: the error's message on one line, the profile an
// answer of the API came from, and what to do next (advice.ts). cli.ts prints it; `platform
// mcp` hands it to its tools, so that a tool error says what the CLI would.
import { ApiError, AuthError, errorLine, NetworkError } from '../base/errors.js';
import { adviceFor } from './advice.js';

/** An error message as one line: its line breaks as spaces (and blank space around them as one). */
export function oneLine(text: string): string {
  return text.replace(/[ \t]*(\r\n|\r|\n|\u2028|\u2029)+[ \t]*/g, ' ');
}

/** The error's line with the profile and the advice; empty when the error has no message (a partial failure reported its items). */
export function errorLineOf(error: unknown, profile: string | undefined): string {
  const message = errorLine(error);
  // An answer of the API names the profile it was asked with: a wrong default explains itself.
  const fromApi = error instanceof ApiError || error instanceof AuthError || error instanceof NetworkError;
  const line = oneLine(`${message}${fromApi && profile && !message.includes(`profile ${profile}`) ? ` (profile ${profile})` : ''}`);
  const advice = adviceFor(error);
  return line && advice ? `${line}; ${advice}` : line;
}
