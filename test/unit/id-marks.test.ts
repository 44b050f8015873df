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

  it('counts each id on its own, across growth, as a Map of counts would', () => {
    const counts = new IdMarks();
    const ids = Array.from({ length: 20_000 }, () => randomUUID());
    const expected = new Map<string, number>();
    // Each id 1 to 3 times, interleaved, so the table grows between an id's counts.
    const order = [...ids, ...ids.filter((_, i) => i % 2 === 0), ...ids.filter((_, i) => i % 3 === 0)];
    const got = order.map((id) => counts.count(id));
    const want = order.map((id) => {
      const n = (expected.get(id) ?? 0) + 1;
      expected.set(id, n);
      return n;
    });
    expect(got).toEqual(want);
    expect(got.filter((n) => n === 3).length).toBe(ids.filter((_, i) => i % 6 === 0).length);
    // Counting adds: a counted id is known.
    expect(ids.every((id) => counts.has(id))).toBe(true);
  });
});
