// The order in which a table gives way on a narrow terminal (src/output/table.ts): columns
// left out by priority, cells wrapped, nothing cut; and the escapes that keep a cell's value
// on one line and inert (src/output/terminal-text.ts).
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.js';
import { fitTable, renderTable, wrapCell, type FitColumn } from '../../src/output/table.js';
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

  it('wraps a name onto a second line before it leaves out a column, and narrows neither an id nor a short value', () => {
    const columns = [
      col('ID', [ID], { kind: 'id' }),
      col('NAME', ['Campaign 001 sushi'], { kind: 'text' }),
      col('STATUS', ['active']),
      col('BUDGET', ['455.00 USD'], { priority: 4 }),
      col('UNIT', ['weekly'], { priority: 3 }),
      col('AD GROUPS', ['4'], { priority: 1 }),
      col('UPDATED', ['2025-01-07'], { priority: 2 }),
    ];
    // 80 columns: the two least important go, the name wraps ("Campaign 001" / "sushi").
    const at80 = fitTable(columns, 80);
    expect(at80.shown).toEqual([0, 1, 2, 3, 4]);
    expect(at80.widths).toEqual([36, 14, 6, 10, 6]);
    expect(total(at80.widths)).toBe(80);
    // 60 columns: the budget and its unit go too, rather than break "Campaign" or "455.00 USD".
    expect(fitTable(columns, 60)).toEqual({ shown: [0, 1, 2], widths: [36, 14, 6] });
  });

  it('lets one long name take a third line rather than leave out a column of every row', () => {
    const name = (values: string[]) => col('NAME', values, { kind: 'text' });
    const rest = [col('STATUS', ['active']), col('BUDGET', ['455.00 USD'], { priority: 1 })];
    const fit = fitTable([col('ID', [ID], { kind: 'id' }), name(['Campaign 001 sushi', 'Spring promo for the whole west coast region']), ...rest], 76);
    expect(fit).toEqual({ shown: [0, 1, 2, 3], widths: [36, 18, 6, 10] });
  });

  it('leaves optional columns out by priority, not position, those of one priority together, and brings back the most important that fit', () => {
    const columns = [
      col('PRODUCT', ['Economy XL']),
      col('ESTIMATE', ['$11-14']),
      col('LOW', ['$11'], { priority: 1 }),
      col('HIGH', ['$14'], { priority: 1 }),
      col('SURGE', ['x1.5']),
      col('DURATION', ['8 min'], { priority: 3 }),
      col('DISTANCE', ['1.07 mi'], { priority: 2 }),
      col('PRODUCT ID', [ID], { kind: 'id', priority: 4 }),
    ];
    const header = (fit: { shown: number[] }) => fit.shown.map((i) => columns[i]!.header);
    expect(header(fitTable(columns, 80))).toEqual(['PRODUCT', 'ESTIMATE', 'SURGE', 'DURATION', 'PRODUCT ID']);
    // Without the id there is room for all the rest again.
    expect(header(fitTable(columns, 60))).toEqual(['PRODUCT', 'ESTIMATE', 'LOW', 'HIGH', 'SURGE', 'DURATION', 'DISTANCE']);
  });

  it('wraps a words column no narrower than its longest word, and breaks words only when nothing else gives', () => {
    const columns = [col('TYPE', ['KEYWORD_PERFORMANCE'], { kind: 'id' }), col('DIMENSIONS', ['campaign_id campaign_name ad_group_id'], { kind: 'words' })];
    expect(fitTable(columns, 34).widths).toEqual([19, 13]);
    // Never narrower than its header.
    expect(fitTable(columns, 30).widths).toEqual([19, 10]);
  });

  it('never narrows a column below its widest value of up to 12 characters, nor its header', () => {
    const columns = [
      col('ID', [ID], { kind: 'id' }),
      col('EXPIRES', ['2026-12-28 19:37 (renews)', '-', 'twelve chars']),
      col('NAME', ['Dana Demo'], { kind: 'text' }),
    ];
    const { widths } = fitTable(columns, 50);
    expect(widths).toEqual([36, 12, 9]);
  });

  it('lets the line be wider than the terminal rather than cut an id or its header', () => {
    const columns = [col('ID', [ID], { kind: 'id' }), col('AD GROUP ID OF THE AD', [ID], { kind: 'id' }), col('NAME', ['Lunch'], { kind: 'text' })];
    const { widths } = fitTable(columns, 40);
    expect(widths.slice(0, 2)).toEqual([36, 36]);
    expect(total(widths)).toBeGreaterThan(40);
  });
});

describe('wrapCell', () => {
  it('wraps between words, and breaks a word wider than the cell between characters by display width', () => {
    expect(wrapCell('Campaign 001 sushi', 20)).toEqual(['Campaign 001 sushi']);
    expect(wrapCell('Campaign 001 sushi', 14)).toEqual(['Campaign 001', 'sushi']);
    expect(wrapCell('a087eaf3-00b3-49c9', 8)).toEqual(['a087eaf3', '-00b3-49', 'c9']);
    // A combining accent stays with its letter; a wide character takes two cells.
    expect(wrapCell('Cafe\u0301s', 4)).toEqual(['Cafe\u0301', 's']);
    expect(wrapCell('寿司とラーメン', 5)).toEqual(['寿司', 'とラ', 'ーメ', 'ン']);
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
      { header: 'SECRET', name: 'secret', csv: () => 'csv only', csvOnly: true },
    ],
  };
  const terminal = (columns: number, stdoutIsTTY = true) => ({ io: { stdoutIsTTY, columns }, globals: { color: false } }) as unknown as Context;
  const rows: Row[] = [{ id: ID, name: '寿司とラーメンの店 Cafe\u0301 sushi', columns: 'campaign_id campaign_name ad_group_id' }];
  // Wide characters take two cells.
  const cells = (line: string) => [...line].reduce((n, c) => n + (/[\u3000-\u9fff]/.test(c) ? 2 : 1), 0) - (line.match(/\u0301/g)?.length ?? 0);

  it('keeps the id whole, and wraps the name and the words column within their cells: nothing cut, no line wider than the terminal', () => {
    const out = renderTable(terminal(70), view, rows);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toBe(`ID${' '.repeat(36)}NAME${' '.repeat(15)}COLUMNS`);
    expect(lines[1]).toContain(ID);
    expect(out).not.toContain('…');
    // The name's 18 cells of Japanese are one word wider than its 17: broken between characters, every one kept.
    expect(lines.slice(1).map((l) => l.slice(38).split('  ')[0]!.trim())).toEqual(['寿司とラーメンの', '店 Cafe\u0301 sushi', '']);
    expect(lines.slice(1).map((l) => l.slice(l.lastIndexOf('  ') + 2).trim())).toEqual(['campaign_id', 'campaign_name', 'ad_group_id']);
    expect(Math.max(...lines.map(cells))).toBeLessThanOrEqual(70);
  });

  it('cuts and wraps nothing when not on a terminal, nor with -o wide, which shows the CSV-only columns too', () => {
    const piped = renderTable(terminal(40, false), view, rows);
    expect(piped.split('\n')).toHaveLength(3);
    expect(piped).toContain(rows[0]!.name);
    expect(piped).toContain(rows[0]!.columns);
    const wide = renderTable(terminal(40), view, rows, { wide: true });
    expect(wide.split('\n')[0]).toMatch(/COLUMNS +SECRET$/);
    expect(wide.split('\n')[1]).toContain(`${rows[0]!.columns}  csv only`);
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
