// --help on a real terminal of 80 columns (the terminal's own width, no $COLUMNS): the longest
// helps fit a screen of 80 by 60, and a help topic wraps to the terminal too.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runOnPty } from '../helpers/pty.js';

/** A new user's environment, without the COLUMNS of whoever runs the tests. */
function env(): Record<string, string> {
  const home = tempDir();
  return { PATH: process.env.PATH ?? '', HOME: home, PLATFORM_CONFIG_DIR: path.join(home, '.config/platform'), NO_COLOR: '1' };
}

describe('help on an 80-column terminal', () => {
  it.each([[['ads', 'ad-groups', 'patch', '--help']], [['ads', 'apply', '--help']], [['--help']], [['help', 'bulk']], [['help', 'globals']]])(
    'platform %j fits 80 columns (and a command help 60 lines)',
    async (args) => {
      const { code, output } = await runOnPty(args, env(), { columns: 80, rows: 60 }).done;
      expect(code, output).toBe(0);
      const lines = output.replace(/\n$/, '').split('\n');
      expect(lines.filter((line) => line.length > 80)).toEqual([]);
      if (args.includes('--help')) {
        expect(lines.length, output).toBeLessThanOrEqual(60);
        expect(output).toContain('Examples:');
      }
    },
  );
});
