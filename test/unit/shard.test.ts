import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inShard, parseShard, shardOf } from '../../src/bulk/shard.js';
import { UsageError } from '../../src/base/errors.js';

describe('--shard I/N', () => {
  it('the N shards partition any set of identities: each is in exactly one, whatever the order (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(fc.uuid(), fc.string())), fc.integer({ min: 1, max: 64 }), (ids, count) => {
        const taken = new Map<string, number>();
        for (let index = 0; index < count; index++) {
          const shard = { index, count };
          for (const id of ids) if (inShard(id, shard)) taken.set(id, (taken.get(id) ?? 0) + 1);
        }
        for (const id of ids) expect(taken.get(id), id).toBe(1);
      }),
    );
  });

  it('spreads ids over the shards (no shard of 4 takes fewer than a fifth of 10,000 ids)', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 10_000; i++) counts[shardOf(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, 4)]!++;
    for (const n of counts) expect(n).toBeGreaterThan(2_000);
  });

  it('is a fixed function of the identity (journals of sharded runs depend on it across versions)', () => {
    // FNV-1a of "a" is 0xe40c292c; of "" the offset basis 0x811c9dc5.
    expect(shardOf('a', 2 ** 32)).toBe(0xe40c292c);
    expect(shardOf('', 2 ** 32)).toBe(0x811c9dc5);
  });

  it('reads I/N with I from 0 to N-1; anything else is a usage error naming the flag', () => {
    expect(parseShard('0/4')).toEqual({ index: 0, count: 4 });
    expect(parseShard('3/4')).toEqual({ index: 3, count: 4 });
    expect(parseShard('0/1')).toEqual({ index: 0, count: 1 });
    for (const bad of ['4/4', '1/0', '0/0', '-1/4', '1', '1/4/2', 'a/b', '', '1.5/4', '99999999999999999999/1']) {
      expect(() => parseShard(bad), bad).toThrow(UsageError);
      expect(() => parseShard(bad), bad).toThrow(/^--shard: /);
    }
  });
});
