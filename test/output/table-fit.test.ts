// The order in which a table gives way on a narrow terminal (src/output/table.ts), and the
// escapes that keep a cell on one line and inert (src/output/terminal-text.ts).
import { describe, expect, it } from 'vitest';
import { fitTable, type FitColumn } from '../../src/output/table.js';
import { escapeControls, escapeInline, escapeJson } from '../../src/output/terminal-text.js';
import { displayWidth, truncate, wrapWords } from '../../src/output/text-width.js';

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
    expect(wrapWords('campaign_id campaign_name ad_group_id', 13)).toEqual(['campaign_id', 'campaign_name', 'ad_group_id']);
  });

  it('lets the line be wider than the terminal rather than cut an id or its header', () => {
    const columns = [col('ID', [ID], { kind: 'id' }), col('AD GROUP ID OF THE AD', [ID], { kind: 'id' }), col('NAME', ['Lunch'], { kind: 'text' })];
    const { widths } = fitTable(columns, 40);
    expect(widths.slice(0, 2)).toEqual([36, 36]);
    expect(total(widths)).toBeGreaterThan(40);
  });
});

describe('text width', () => {
  it('counts wide characters as two cells and combining marks as none', () => {
    expect(displayWidth('寿司')).toBe(4);
    expect(displayWidth('Cafe\u0301')).toBe(4);
    expect(truncate('寿司とラーメン', 7)).toBe('寿司と…');
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
});
