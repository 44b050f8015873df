// A list column (a receipt's charges) breaks between its items, each item's name and amount
// kept together on a line; an item wider than the cell still wraps between its words.
import { describe, expect, it } from 'vitest';
import { fitTable, wrapCell } from '../../src/output/table.js';

const CHARGES = 'Base Fare $4.84, Time $37.10, Distance $32.38, Booking fee $2.55';

describe('a list column', () => {
  it('wraps between items, never inside one that fits', () => {
    expect(wrapCell(CHARGES, 30, ', ')).toEqual(['Base Fare $4.84, Time $37.10,', 'Distance $32.38,', 'Booking fee $2.55']);
    expect(wrapCell(CHARGES, 18, ', ')).toEqual(['Base Fare $4.84,', 'Time $37.10,', 'Distance $32.38,', 'Booking fee $2.55']);
    // Without a separator the same width splits "Booking" from its fee.
    expect(wrapCell(CHARGES, 30)).toContain('Distance $32.38, Booking fee');
  });

  it('wraps an item wider than the cell between its words, and gives back the list whole', () => {
    const lines = wrapCell(CHARGES, 12, ', ');
    expect(lines).toEqual(['Base Fare', '$4.84,', 'Time $37.10,', 'Distance', '$32.38,', 'Booking fee', '$2.55']);
    expect(lines.join(' ')).toBe(CHARGES);
  });

  it('gives way to its widest item, not its widest word', () => {
    const columns = [
      { header: 'REQUEST ID', kind: 'id' as const, values: ['b56172f83e771e0d2805e342'] },
      { header: 'CHARGES', kind: 'words' as const, separator: ', ', values: [CHARGES] },
      { header: 'DURATION', priority: 1, values: ['65 min'] },
    ];
    expect(fitTable(columns, 60)).toEqual({ shown: [0, 1, 2], widths: [24, 24, 8] });
    // Too narrow for the widest item beside the id: the optional column goes first.
    expect(fitTable(columns, 50)).toEqual({ shown: [0, 1], widths: [24, 24] });
  });
});
