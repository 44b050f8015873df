// Input bytes checked as UTF-8 while they stream. Decoding alone would turn a bad byte
// (a Latin-1 file, a cut multi-byte character) silently into U+FFFD, which would then be
// sent as part of a name: the input is refused instead, naming the line of the bad byte.
import { isUtf8 } from 'node:buffer';
import { UsageError } from '../../base/errors.js';

/** The input in chunks cut at character boundaries, every byte valid UTF-8. */
export async function* utf8Chunks(input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, flag: string): AsyncGenerator<Buffer> {
  let carry: Buffer | undefined;
  let line = 1;
  for await (const piece of input) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
    const all = carry ? Buffer.concat([carry, bytes]) : bytes;
    const end = completeEnd(all);
    const body = all.subarray(0, end);
    if (!isUtf8(body)) throw notUtf8(body, line, flag);
    line += newlines(body, body.length);
    carry = end < all.length ? Buffer.from(all.subarray(end)) : undefined;
    if (body.length) yield body;
  }
  // The input ends inside a character.
  if (carry) throw notUtf8(carry, line, flag);
}

/** Where the last whole character of `bytes` ends: a character cut by the chunk's end waits for the next chunk. */
function completeEnd(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

function newlines(bytes: Buffer, end: number): number {
  let count = 0;
  for (let at = bytes.indexOf(10); at >= 0 && at < end; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}

function notUtf8(bytes: Buffer, lineOfStart: number, flag: string): UsageError {
  const at = firstInvalid(bytes);
  const line = lineOfStart + newlines(bytes, at);
  return new UsageError(`${flag} line ${line}: not UTF-8 text (byte 0x${bytes[at]!.toString(16).toUpperCase().padStart(2, '0')}); save the file as UTF-8`);
}

/** The offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629). */
function firstInvalid(bytes: Buffer): number {
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const more = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (more === 0) return i;
    // The second byte's range excludes overlong forms, UTF-16 surrogates and code points past U+10FFFF.
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k <= more; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
    }
    i += more + 1;
  }
  return Math.max(0, bytes.length - 1);
}
