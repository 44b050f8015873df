// Known-answer vectors computed with OpenSSL (vectors/make-vectors.sh), and each diagnosis
// of a mismatch built from those vectors: the signature of one committed body checked
// against a body changed in one of the usual ways.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSignature, sign, verify, type NamedSecret } from '../../src/webhooks/signature.js';

const dir = path.join(import.meta.dirname, '../fixtures/webhook-vectors');
const body = (name: string) => fs.readFileSync(path.join(dir, 'bodies', name));
const vectors = fs
  .readFileSync(path.join(dir, 'vectors.tsv'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => {
    const [file, key, hex] = line.split('\t') as [string, string, string];
    return { file, key, hex };
  });
const sigOf = (file: string, key: string) => vectors.find((v) => v.file === file && v.key === key)!.hex;
const KEY = 'sandbox-demo-secret';
const secret: NamedSecret = { name: 'PLATFORM_WEBHOOK_SECRET', value: KEY };
const parsed = (hex: string) => {
  const p = parseSignature(hex);
  if (!p.ok) throw new Error(p.problem);
  return p.signature;
};

describe('known-answer vectors (openssl dgst -sha256 -hmac)', () => {
  it('has every body under four keys, including one longer than the block size', () => {
    expect(vectors).toHaveLength(fs.readdirSync(path.join(dir, 'bodies')).length * 4);
    expect(new Set(vectors.map((v) => v.key)).size).toBe(4);
    expect(vectors.some((v) => v.key.length === 100)).toBe(true);
  });

  it('sign() gives the same hex HMAC-SHA256 as OpenSSL for every vector', () => {
    for (const v of vectors) expect(sign(body(v.file), v.key), `${v.file} / ${v.key}`).toBe(v.hex);
  });

  it('verify() accepts every vector', () => {
    for (const v of vectors) expect(verify(body(v.file), { name: 'k', value: v.key }, parsed(v.hex)).valid).toBe(true);
  });
});

describe('diagnosis of a mismatch', () => {
  const diagnose = (received: string, signedFile: string, alternatives: NamedSecret[] = [], key = KEY) => {
    const result = verify(body(received), { name: 'PLATFORM_WEBHOOK_SECRET', value: key }, parsed(sigOf(signedFile, KEY)), { alternatives });
    expect(result.valid).toBe(false);
    return result.diagnosis;
  };

  it('a trailing newline added to the body', () => {
    expect(diagnose('event-newline.json', 'event-compact.json')).toMatchObject({
      case: 'trailing-newline-added',
      message: expect.stringMatching(/without its final newline/),
    });
  });

  it('a trailing newline removed from the body', () => {
    expect(diagnose('event-compact.json', 'event-newline.json')).toMatchObject({
      case: 'trailing-newline-removed',
      message: expect.stringMatching(/with a final newline/),
    });
  });

  it('the body pretty-printed', () => {
    expect(diagnose('event-pretty.json', 'event-compact.json')).toMatchObject({ case: 'pretty-printed', message: expect.stringMatching(/pretty-printed/) });
  });

  it('the keys reordered', () => {
    expect(diagnose('event-reordered.json', 'event-compact.json')).toMatchObject({
      case: 'keys-reordered',
      message: expect.stringMatching(/keys were reordered/),
    });
  });

  it('backslash escapes removed by a JSON parser (spec 6.3.4)', () => {
    expect(diagnose('event-unescaped.json', 'event-escaped.json')).toMatchObject({
      case: 'backslashes-stripped',
      message: expect.stringMatching(/backslash escapes .* put back.*6\.3\.4/),
    });
  });

  it('escapes kept through a reordering or a pretty-print: named as that change, not as escapes removed', () => {
    // The escaped body (its \/ and \u00e9 as signed), re-serialized by a tool that keeps escapes.
    const escaped = body('event-escaped.json').toString('utf8');
    const signature = parsed(sigOf('event-escaped.json', KEY));
    const reordered = escaped.replace(/^\{("event_id":"[^"]*"),("event_time":\d+),/, '{$2,$1,');
    const pretty = escaped
      .replace(/^\{/, '{\n  ')
      .replace(/\}$/, '\n}')
      .replace(/,"resource_href"/, ',\n  "resource_href"');
    expect(reordered).not.toBe(escaped);
    expect(verify(Buffer.from(reordered), secret, signature).diagnosis).toMatchObject({ case: 'keys-reordered' });
    expect(verify(Buffer.from(pretty), secret, signature).diagnosis).toMatchObject({ case: 'pretty-printed' });
  });

  it('the sender signed a re-encoded body while the raw one was received', () => {
    expect(diagnose('event-escaped.json', 'event-unescaped.json')).toMatchObject({
      case: 're-encoded',
      message: expect.stringMatching(/re-encoded from parsed JSON/),
    });
  });

  it('a different secret: the other one matches, and is named but never shown', () => {
    const profile: NamedSecret = { name: 'the client secret of profile local', value: KEY };
    const d = diagnose('event-compact.json', 'event-compact.json', [profile], 'some-other-secret');
    expect(d).toMatchObject({
      case: 'different-secret',
      message: 'it matches with the client secret of profile local, not PLATFORM_WEBHOOK_SECRET: the sender signs with the other secret',
    });
    expect(d!.message).not.toContain(KEY);
    // Both at once: the other secret and a newline.
    expect(diagnose('event-newline.json', 'event-compact.json', [profile], 'some-other-secret')!.case).toBe('different-secret+trailing-newline-added');
  });

  it('uppercase hex and whitespace around the header: valid with a note, a mismatch with --strict', () => {
    const hex = sigOf('event-compact.json', KEY);
    for (const [value, quirk] of [
      [hex.toUpperCase(), 'uppercase'],
      [`  ${hex}\t`, 'whitespace'],
    ] as const) {
      const loose = verify(body('event-compact.json'), secret, parsed(value));
      expect(loose.valid).toBe(true);
      expect(loose.notes.join()).toMatch(quirk === 'uppercase' ? /uppercase hex/ : /whitespace around it/);
      const strict = verify(body('event-compact.json'), secret, parsed(value), { strict: true });
      expect(strict).toMatchObject({ valid: false, diagnosis: { case: `header-${quirk}` } });
    }
  });

  it('nothing to say when the body was really changed', () => {
    const changed = Buffer.from(body('event-compact.json').toString().replace('accepted', 'completed'));
    expect(verify(changed, secret, parsed(sigOf('event-compact.json', KEY))).diagnosis).toBeUndefined();
  });
});

describe('unusable signatures', () => {
  it('names the problem: empty, not hex, base64, wrong length', () => {
    const problem = (v: string) => {
      const p = parseSignature(v);
      return p.ok ? undefined : p.problem;
    };
    expect(problem('')).toBe('is empty');
    expect(problem(`${'a'.repeat(63)}g`)).toBe('is not hexadecimal: "g" at position 64');
    expect(problem(Buffer.alloc(32, 7).toString('base64'))).toMatch(/looks like base64/);
    expect(problem('ab'.repeat(20))).toBe('has 40 hexadecimal digits; an HMAC-SHA256 has 64 (40 is the length of a SHA-1 HMAC)');
    expect(problem('abc')).toMatch(/has 3 hexadecimal digits/);
    expect(problem(`sha256=${'a'.repeat(64)}`)).toBeUndefined();
  });
});
