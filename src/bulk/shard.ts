// --shard I/N: one of N processes (or machines) takes the rows whose identity hashes to I, so
// that N runs of one input together send every row exactly once. The identity is the row's
// base identity (row-identity.ts): a patch row's resource id, a create row's content hash.
// Neither moves when the input is reordered, filtered or grown (a line number would: a resumed
// shard would then take rows another shard sent), and every occurrence of one identity lands
// in the same shard, so their "#n" keys are those of an unsharded run. A row found invalid
// before it has an identity is taken by the shard of its line: it is only reported, never sent.
import { UsageError } from '../base/errors.js';

export interface Shard {
  index: number;
  count: number;
}

/** `I/N` with 0 <= I < N; anything else is a usage error naming the flag. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index >= count) {
    throw new UsageError(`--shard: expected I/N with I from 0 to N-1 (e.g. 0/4), got "${text}"`);
  }
  return { index, count };
}

/** How the journal and messages name a shard: `I/N`. */
export function shardName(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** How a run was given its shard, as the flag reads: `--shard I/N`, or `no --shard`. */
export function shardFlag(name: string | undefined): string {
  return name ? `--shard ${name}` : 'no --shard';
}

/** The part of a file name that tells shards apart (two shards never share a journal, nor a lock): `-shard-I-of-N`. */
export function shardPart(shard: Shard | undefined): string {
  return shard ? `-shard-${shard.index}-of-${shard.count}` : '';
}

/** The shard (0..count-1) a row of this identity belongs to: FNV-1a (32 bits) of its UTF-16 units. */
export function shardOf(identity: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < identity.length; i++) hash = Math.imul(hash ^ identity.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % count;
}

/** Whether a row of this identity is this shard's (every row is, without --shard). */
export function inShard(identity: string, shard: Shard | undefined): boolean {
  return shard === undefined || shard.count === 1 || shardOf(identity, shard.count) === shard.index;
}

/** The identity of a row invalid before it has one: its line (it is reported by exactly one shard). */
export function lineIdentity(line: number): string {
  return `line:${line}`;
}
