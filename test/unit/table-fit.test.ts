// The order in which a table gives way on a narrow terminal (src/output/table.ts), and the
// escapes that keep a cell on one line and inert (src/output/terminal-text.ts).
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.js';
import { fitTable, renderTable, type FitColumn } from '../../src/output/table.js';
import type { View } from '../../src/output/columns.js';
import { escapeControls, escapeInline, escapeJson } from '../../src/output/terminal-text.js';

const ID = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const col = (header: string, values: string[], extra: Partial<FitColumn> = {}): FitColumn => ({ header, values, ...extra });
const total = (widths: number[]) => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);

describe('fitTable', () => {
  it('leaves every column at its natural width when the table fits, or when not on a terminal', () => {
    const columns = [col('ID', [ID], { kind: 'id' }), col('NAME', ['A rather long campaign name'], { kind: 'text' })];
    expect(fitTable(columns, 200)).toEqual({ shown: [0, 1], widths: [36, 27] });
    expect(fitTable(columns, undefined)).toEqual({ shown: [0, 1], widths: [36, 27] });
  });

  it('shrinks free text first and never an id, nor an unmarked column while text can give', () => {
    const columns = [col('ID', [ID], { kind: 'id' }), col('NAME', ['x'.repeat(60)], { kind: 'text' }), col('STATUS', ['active'])];
    const { widths } = fitTable(columns, 60);
    expect(widths[0]).toBe(36);
    expect(widths[2]).toBe(6);
    expect(total(widths)).toBe(60);
  });

  it('leaves optional columns out, the rightmost first, before it cuts an unmarked one', () => {
    const columns = [
      col('ID', [ID], { kind: 'id' }),
      col('NAME', ['Campaign 001 sushi'], { kind: 'text' }),
      col('BUDGET', ['455.00 USD']),
      col('AD GROUPS', ['4'], { optional: true }),
      col('UPDATED', ['2025-01-07'], { optional: true }),
    ];
    const { shown, widths } = fitTable(columns, 70);
    expect(shown).toEqual([0, 1, 2, 3]);
    expect(widths[shown.indexOf(2)]).toBe(10);
    expect(fitTable(columns, 60).shown).toEqual([0, 1, 2]);
  });

  it('wraps a words column no narrower than its longest word', () => {
    const columns = [col('TYPE', ['KEYWORD_PERFORMANCE'], { kind: 'id' }), col('DIMENSIONS', ['campaign_id campaign_name ad_group_id'], { kind: 'words' })];
    const { widths } = fitTable(columns, 30);
    expect(widths).toEqual([19, 13]);
  });

  it('lets the line be wider than the terminal rather than cut an id or its header', () => {
    const columns = [col('ID', [ID], { kind: 'id' }), col('AD GROUP ID OF THE AD', [ID], { kind: 'id' }), col('NAME', ['Lunch'], { kind: 'text' })];
    const { widths } = fitTable(columns, 40);
    expect(widths.slice(0, 2)).toEqual([36, 36]);
    expect(total(widths)).toBeGreaterThan(40);
  });
});

describe('renderTable on a narrow terminal', () => {
  interface Row {
    id: string;
    name: string;
    columns: string;
  }
  const view: View<Row> = {
    noun: 'rows',
    columns: [
      { header: 'ID', name: 'id', csv: (r) => r.id, kind: 'id' },
      { header: 'NAME', name: 'name', csv: (r) => r.name, kind: 'text' },
      { header: 'COLUMNS', name: 'columns', csv: (r) => r.columns, kind: 'words' },
    ],
  };
  const terminal = (columns: number) => ({ io: { stdoutIsTTY: true, columns }, globals: { color: false } }) as unknown as Context;
  const rows: Row[] = [{ id: ID, name: '寿司とラーメンの店 Cafe\u0301 sushi', columns: 'campaign_id campaign_name ad_group_id' }];

  it('keeps the id whole, cuts the name with an ellipsis by display width, and wraps the words column between words', () => {
    const lines = renderTable(terminal(70), view, rows).trimEnd().split('\n');
    expect(lines[1]).toContain(ID);
    expect(lines[1]).toMatch(/寿司.*…/);
    expect(lines.slice(1).map((l) => l.slice(l.lastIndexOf('  ') + 2).trim())).toEqual(['campaign_id', 'campaign_name', 'ad_group_id']);
    // Wide characters take two cells: no line is wider than the terminal.
    const cells = (line: string) => [...line].reduce((n, c) => n + (/[\u3000-\u9fff]/.test(c) ? 2 : 1), 0);
    expect(Math.max(...lines.map(cells))).toBeLessThanOrEqual(70);
  });

  it('cuts nothing when not on a terminal', () => {
    const out = renderTable({ io: { stdoutIsTTY: false, columns: 40 }, globals: { color: false } } as unknown as Context, view, rows);
    expect(out).toContain(rows[0]!.name);
    expect(out).toContain(rows[0]!.columns);
  });
});

describe('terminal escapes', () => {
  it('shows bidi controls, C1 CSI and ESC escaped; keeps newlines only outside cells', () => {
    expect(escapeControls('a\u202eb\u009b31m\u001b[0m\nnext')).toBe('a\\u202eb\\x9b31m\\x1b[0m\nnext');
    expect(escapeInline('Two\nlines\tand\r\u2066isolate\u2069')).toBe('Two\\nlines\\tand\\r\\u2066isolate\\u2069');
  });

  it('escapes JSON text as JSON escapes, so it parses to the same value', () => {
    const value = { name: 'Sale \u202egnp.exe \u009b31m \u200f\u061c' };
    const escaped = escapeJson(JSON.stringify(value));
    expect(escaped).not.toMatch(/[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e]/);
    expect(JSON.parse(escaped)).toEqual(value);
  });

  it('shows invisible format characters (Unicode Cf) escaped, so two names that look alike read apart', () => {
    // Zero-width space, word joiner, BOM, soft hyphen, zero-width joiner, and a tag character beyond U+FFFF.
    expect(escapeInline('Sale\u200b')).toBe('Sale\\u200b');
    expect(escapeInline('Sale')).toBe('Sale');
    expect(escapeControls('a\u2060b\ufeffc\u00add\u200de\u{e0041}f')).toBe('a\\u2060b\\ufeffc\\xadd\\u200de\\u{e0041}f');
    // Every Cf character, and nothing visible.
    const cf = Array.from({ length: 0x110000 }, (_, code) => code)
      .filter((code) => (code < 0xd800 || code > 0xdfff) && /\p{Cf}/u.test(String.fromCodePoint(code)))
      .map((code) => String.fromCodePoint(code));
    expect(cf.length).toBeGreaterThan(150);
    for (const c of cf) expect(escapeInline(`x${c}y`), `U+${c.codePointAt(0)!.toString(16)}`).toMatch(/^x\\(x|u)[{0-9a-f]+}?y$/);
    expect(escapeInline('Ünïcødé 名前 😀 مرحبا')).toBe('Ünïcødé 名前 😀 مرحبا');
    const value = { name: `Sale\u200b ${cf.join('')}` };
    const escaped = escapeJson(JSON.stringify(value));
    expect(escaped).not.toMatch(/\p{Cf}/u);
    expect(JSON.parse(escaped)).toEqual(value);
  });
});
