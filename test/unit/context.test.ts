// A command's Context is built once from its parsed global flags and never changes after.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createFactory } from '../../src/factory.js';

describe('the context a command gets', () => {
  it('holds the global flags as parsed, frozen', async () => {
    const factory = createFactory(
      {
        io: { stdout: new PassThrough(), stderr: new PassThrough(), stdin: Readable.from([]), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false },
        env: {},
        signal: new AbortController().signal,
        version: '0.0.0-test',
      },
      { color: false, debug: true, output: 'csv', query: '[0]' },
    );
    const { globals } = factory.ctx;
    expect(globals).toMatchObject({ debug: true, output: 'csv', query: '[0]' });
    expect(Object.isFrozen(globals)).toBe(true);
    expect(() => Object.assign(globals, { output: 'json' })).toThrow(TypeError);
    await factory.close();
  });

  it('has its folders from the home folder it is given, frozen', async () => {
    const factory = createFactory({
      io: { stdout: new PassThrough(), stderr: new PassThrough(), stdin: Readable.from([]), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false },
      env: {},
      signal: new AbortController().signal,
      homedir: '/home/ada',
      version: '0.0.0-test',
    });
    const { paths } = factory.ctx;
    expect(paths).toMatchObject({
      runs: '/home/ada/.local/state/platform/runs',
      budgets: '/home/ada/.local/state/platform/budgets',
      config: '/home/ada/.config/platform',
    });
    expect(Object.isFrozen(paths)).toBe(true);
    await factory.close();
  });
});
