// The pure parts of how --help is laid out: examples wrapped to copy whole, topics wrapped
// with their items' continuations under their text.
import { describe, expect, it } from 'vitest';
import { exampleLines, wrapText } from '../../src/commands/help/format.js';

/** What a shell runs: the lines joined at their ` \` continuations. */
function joined(lines: string[]): string {
  return lines
    .filter((line) => !line.startsWith('  # '))
    .join('\n')
    .replace(/^ {2}\$ /, '')
    .replace(/ \\\n +/g, ' ');
}

describe('exampleLines', () => {
  it('keeps a short example on one line', () => {
    expect(exampleLines('platform ads accounts list', 80)).toEqual(['  $ platform ads accounts list']);
  });

  it('wraps a long one over ` \\` lines within the width, a flag with its value, to paste whole', () => {
    const example =
      'platform ads ad-groups create --account a087eaf3-00b3-49c9-8706-c4ebfb2627fd --campaign CAMPAIGN --name "Lunch" --store-ids STORE --bid 0.50 --currency USD --keywords pizza,pasta --match-type exact --daypart mon-fri=11:00-14:00';
    for (const width of [60, 80, 100]) {
      const lines = exampleLines(example, width);
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.filter((line) => line.length > width)).toEqual([]);
      expect(lines.slice(0, -1).every((line) => line.endsWith(' \\'))).toBe(true);
      expect(lines.slice(1).every((line) => line.startsWith('      '))).toBe(true);
      expect(joined(lines)).toBe(example);
      // No line starts with a flag's value.
      expect(lines.slice(1).every((line) => line.trimStart().startsWith('-'))).toBe(true);
    }
  });

  it('keeps a quoted argument whole, and puts a comment on the line above', () => {
    const quoted = 'platform rider request cancel "$(platform rider request current --json | jq -r .request_id)"';
    const lines = exampleLines(quoted, 80);
    expect(lines).toEqual(['  $ platform rider request cancel \\', '      "$(platform rider request current --json | jq -r .request_id)"']);
    expect(exampleLines('platform auth login --no-browser    # on a server', 80)).toEqual(['  # on a server', '  $ platform auth login --no-browser']);
  });
});

describe('wrapText', () => {
  it('wraps a paragraph, a table row under its text and a list item under its words', () => {
    const text = [
      'A paragraph long enough to be wrapped at forty columns of text.',
      '  --shard I/N  take only shard I of N of the input rows',
      '  - a list item long enough to be wrapped as well, under its words',
    ].join('\n');
    const lines = wrapText(text, 40).split('\n');
    expect(lines.filter((line) => line.length > 40)).toEqual([]);
    expect(lines).toContain('  --shard I/N  take only shard I of N of');
    expect(lines).toContain('               the input rows');
    expect(lines[lines.findIndex((line) => line.startsWith('  - a list')) + 1]).toMatch(/^ {4}\S/);
  });
});
