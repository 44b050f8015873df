// The pty tests read what a terminal shows (test/helpers/terminal-screen.ts): a spinner's
// frame erased before the line that replaces it, a line wider than the terminal kept whole.
import { describe, expect, it } from 'vitest';
import { shownOnTerminal } from '../helpers/terminal-screen.js';

describe('shownOnTerminal', () => {
  it('shows a spinner frame erased with ESC[1G ESC[0K as gone, and colours and modes as nothing', () => {
    const output = '\x1b[?25l\x1b[?2026h\x1b[1G\x1b[36m⠋\x1b[39m Ride 1: completed\x1b[?2026l\x1b[1G\x1b[0K\x1b[?25hRide 1: completed\nA  B\n\x1b[?25h';
    expect(shownOnTerminal(output, 80)).toBe('Ride 1: completed\nA  B\n');
  });

  it('erases a frame that wrapped onto a second row (ESC[1A), and joins a wrapped line back', () => {
    const frame = `⠋ ${'x'.repeat(15)}`;
    const line = 'y'.repeat(15);
    const output = `${frame}\x1b[1G\x1b[0K\x1b[1A\x1b[0K${line}\nend`;
    expect(shownOnTerminal(output, 10)).toBe(`${line}\nend`);
  });

  it('writes over what \\r goes back to, and erases to the end of the line', () => {
    expect(shownOnTerminal('[####------] 4/10\r\x1b[KDone\nnext', 40)).toBe('Done\nnext');
    expect(shownOnTerminal('abcdef\rXY', 40)).toBe('XYcdef');
  });

  it('gives a wide character two cells', () => {
    // 寿司 takes four cells: at five columns the last "x" still fits, another wraps.
    expect(shownOnTerminal('寿司x\x1b[1GA', 5)).toBe('A司x');
    expect(shownOnTerminal('寿司xy\x1b[1GA', 5)).toBe('寿司xA');
  });
});
