// The ids the current-state reader has handed out, kept as hashes: every id added is known,
// through every growth of the table, and ids never added are not (a collision would only
// cost a fresh read, but at 64 bits none is expected in a million).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdMarks } from '../../src/bulk/id-marks.js';

describe('IdMarks', () => {
  it('knows every id added and none other, across growth', () => {
    const marks = new IdMarks();
    const added = Array.from({ length: 300_000 }, () => randomUUID());
    for (const id of added) marks.add(id);
    for (const id of added) marks.add(id); // added twice: still one mark
    expect(added.every((id) => marks.has(id))).toBe(true);
    const others = Array.from({ length: 300_000 }, () => randomUUID());
    expect(others.filter((id) => marks.has(id))).toEqual([]);
    // Short and similar ids (not UUIDs), the empty one too.
    const short = new IdMarks();
    for (let i = 0; i < 5000; i++) short.add(String(i));
    short.add('');
    expect([...Array(5000).keys()].every((i) => short.has(String(i)))).toBe(true);
    expect(short.has('')).toBe(true);
    expect([...Array(5000).keys()].some((i) => short.has(String(i + 5000)))).toBe(false);
  });
});
