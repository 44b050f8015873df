// The one line a failed command ends with (commands/error-line.ts), which cli.ts prints and
// `platform mcp` gives as its tool errors: on one line, naming the profile an API answer came
// from, and ending with what to do next.
import { describe, expect, it } from 'vitest';
import { ApiError, CommandError, NetworkError, PartialFailureError } from '../../src/base/errors.js';
import { errorLineOf } from '../../src/commands/error-line.js';

describe('errorLineOf', () => {
  it('names the profile of an API answer once, and not for a command`s own error', () => {
    expect(errorLineOf(new ApiError(404, 'not_found', 'no campaign c1'), 'work')).toBe('not_found: no campaign c1 (profile work)');
    expect(errorLineOf(new ApiError(403, 'forbidden', 'profile work may not'), 'work')).toBe('forbidden: profile work may not');
    expect(errorLineOf(new CommandError('not applied'), 'work')).toBe('not applied');
  });

  it('puts a message of several lines on one, and adds the advice', () => {
    const untrusted = Object.assign(new Error('unable to verify the first certificate'), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    const line = errorLineOf(new NetworkError('could not reach https://api.example\n  (1 attempt)', untrusted), 'corp');
    expect(line).toBe(
      'could not reach https://api.example (1 attempt) (profile corp); if a TLS-inspecting proxy or a private CA signed it, trust that CA with --ca-file FILE (or PLATFORM_CA_FILE)',
    );
  });

  it('is empty for a partial failure that reported its items (no advice on its own)', () => {
    expect(errorLineOf(new PartialFailureError(), 'work')).toBe('');
  });
});
