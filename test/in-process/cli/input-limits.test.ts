// Huge and hostile input is refused while it streams: exit 2, one line naming the line or
// item and the limit, no stack trace, nothing sent, and only about one limit's worth read
// (each input here is a 1 GiB stream generated as it is read; reading it all would time out).
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, type TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
const dir = tempDir();

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
});
afterAll(() => sandbox.close());

const MiB = 1 << 20;
const active = 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE';

/** `head`, then `fill` repeated up to 1 GiB, produced as it is read; `read()` says how much was taken. */
function endless(head: string, fill: string): { stream: Readable; read: () => number } {
  let read = 0;
  const chunk = Buffer.from(fill.repeat(Math.ceil((64 * 1024) / fill.length)));
  const stream = Readable.from(
    (function* () {
      read += Buffer.byteLength(head);
      yield Buffer.from(head);
      while (read < 1024 * MiB) {
        read += chunk.length;
        yield chunk;
      }
    })(),
  );
  return { stream, read: () => read };
}

async function refused(args: string[], input: { stream: Readable; read: () => number }, message: RegExp): Promise<void> {
  const before = sandbox.stats.apiRequests;
  const result = await user.run(args, { stdin: input.stream });
  expect(result.code, result.stderr.slice(0, 500)).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr.length).toBeLessThan(300);
  expect(input.read()).toBeLessThan(4 * MiB);
  expect(sandbox.stats.apiRequests).toBe(before);
}

const createCsv = () => ['ads', 'campaigns', 'create', '--account', account, '--from-csv', '-'];
const createJson = () => ['ads', 'campaigns', 'create', '--account', account, '--from-json', '-'];

describe('endless input ends after about one limit', () => {
  it('a CSV without a newline (a 2 GB single line)', () =>
    refused(createCsv(), endless('', 'a'), /^--from-csv line 1: a record longer than 1 MiB, the limit of one row$/m));

  it('a CSV whose third row opens a quoted cell that never closes', () =>
    refused(
      createCsv(),
      endless('name,status\nfirst,active\nsecond,active\n"', 'a,b\n'),
      /^--from-csv line \d+: a record longer than 1 MiB, the limit of one row$/m,
    ));

  it('an NDJSON line past the limit', () =>
    refused(
      createJson(),
      endless(`{"name":"a","configured_status":"${active}"}\n{"name":"`, 'a'),
      /^--from-json line 2: larger than 1 MiB, the limit of one line$/m,
    ));

  it('a JSON object with no newline at all', () =>
    refused(createJson(), endless('{"name":"', 'a'), /^--from-json item 1 \(line 1\): larger than 1 MiB, the limit of one item$/m));

  it('an array item past the limit', () =>
    refused(
      createJson(),
      endless(`[{"name":"a","configured_status":"${active}"},\n{"name":"`, 'a'),
      /^--from-json item 2 \(line 2\): larger than 1 MiB, the limit of one item$/m,
    ));

  it('an array of arrays, endlessly deep', () =>
    refused(createJson(), endless('', '['), /^--from-json line 1: nested deeper than 64 levels, the limit of the input$/m));

  it('blank space and no value', () => refused(createJson(), endless('', ' \n'), /^--from-json: more than 1 MiB of blank space before the first value$/m));
});

describe('deep nesting is refused before anything recurses into it', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  it.each([
    ['a 10,000-deep NDJSON line', `{"name":${deep(10_000)},"configured_status":"${active}"}\n`, /^--from-json line 1: nested deeper than 64 levels/],
    ['a second NDJSON line', `{"name":"a","configured_status":"${active}"}\n{"name":${deep(10_000)}}\n`, /^--from-json line 2: nested deeper than 64 levels/],
    ['a small pretty-printed document', `{\n  "campaigns":\n ${deep(10_000)}\n}\n`, /^--from-json line 3: nested deeper than 64 levels/],
    ['a small array', `[\n{"name":"a"},\n${deep(10_000)}]`, /^--from-json line 3: nested deeper than 64 levels/],
  ])('%s', async (_what, input, message) => {
    const result = await user.run(createJson(), { stdin: input });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('64 levels are allowed (the limit itself)', async () => {
    // An unknown field holding 62 levels inside the item's object inside the array: refused as unknown, not as too deep.
    const result = await user.run(createJson(), { stdin: `[{"name":"a","configured_status":"${active}","x":${deep(62)}}]` });
    expect(result.stderr).toMatch(/: item 1: unknown field x\n$/);
  });
});

describe('long keys and values are cut in messages, with their length', () => {
  it('an unknown JSON key of 500,000 characters', async () => {
    const key = 'k'.repeat(500_000);
    const result = await user.run(createJson(), { stdin: `{"name":"a","configured_status":"${active}","${key}":1}\n` });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/: line 1: unknown field "k{70,79}…" \(500000 characters\)\n$/);
    expect(result.stderr.length).toBeLessThan(400);
  });

  it('a repeated key of 100,000 characters in a streamed document', async () => {
    const key = 'r'.repeat(100_000);
    const filler = `{"name":"${'f'.repeat(1000)}","configured_status":"${active}"},\n`.repeat(1200);
    const result = await user.run(createJson(), { stdin: `[\n${filler}{"${key}":1,"${key}":2}]` });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^--from-json line 1202: the key "r{70,79}…" \(100000 characters\) is given twice in one object$/m);
    expect(result.stderr.length).toBeLessThan(300);
  });

  it('an unknown CSV column of 100,000 characters', async () => {
    const result = await user.run(createCsv(), { stdin: `name,${'c'.repeat(100_000)}\nx,y\n` });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^--from-csv: unknown column "c{70,79}…" \(100000 characters\) \(see platform help csv for the columns\)$/m);
    expect(result.stderr.length).toBeLessThan(300);
  });

  it('a CSV status cell of 100,000 characters', async () => {
    const result = await user.run(createCsv(), { stdin: `name,status\nx,${'s'.repeat(100_000)}\n` });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/: line 2: status: "s{70,79}…" \(100000 characters\) is not one of active, paused\n$/);
    expect(result.stderr.length).toBeLessThan(300);
  });
});

describe('input that is not UTF-8 is refused, naming the line', () => {
  function file(name: string, ...parts: Array<string | number[]>): string {
    const target = path.join(dir, name);
    fs.writeFileSync(target, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));
    return target;
  }

  it.each([
    [
      'a Latin-1 é in a CSV',
      '--from-csv',
      file('latin1.csv', 'name,status\nok,active\nCaf', [0xe9], ',active\n'),
      /^--from-csv line 3: not UTF-8 text \(byte 0xE9\)/,
    ],
    [
      'a stray byte in an NDJSON line',
      '--from-json',
      file('stray.ndjson', `{"name":"ok","configured_status":"${active}"}\n{"name":"b`, [0xff], `d","configured_status":"${active}"}\n`),
      /^--from-json line 2: not UTF-8 text \(byte 0xFF\)/,
    ],
    [
      'a UTF-16 surrogate encoded in UTF-8 (CESU)',
      '--from-csv',
      file('cesu.csv', 'name,status\nx', [0xed, 0xa0, 0x80], ',active\n'),
      /^--from-csv line 2: not UTF-8 text \(byte 0xED\)/,
    ],
    [
      'a file cut inside a character',
      '--from-csv',
      file('cut.csv', 'name,status\nx,active\n寿', [0xe5, 0xaf]),
      /^--from-csv line 3: not UTF-8 text \(byte 0xE5\)/,
    ],
  ])('%s', async (_what, flag, input, message) => {
    const before = sandbox.stats.apiRequests;
    const result = await user.run(['ads', 'campaigns', 'create', '--account', account, flag, input]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/save the file as UTF-8$/m);
    expect(sandbox.stats.apiRequests).toBe(before);
  });

  it('characters cut by the 64 KiB chunks of a file are read whole', async () => {
    // 3-byte and 4-byte characters, so that some chunk boundary falls inside one.
    const rows = Array.from({ length: 3000 }, (_, i) => `寿司🍣 ${i},active`).join('\n');
    const result = await user.run(['ads', 'campaigns', 'create', '--account', account, '--from-csv', file('wide.csv', `name,status\n${rows}\n`), '--dry-run']);
    expect(result.stderr).not.toMatch(/UTF-8/);
    expect(result.code, result.stderr.slice(0, 300)).toBe(0);
  });
});
