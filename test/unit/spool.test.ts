// The bulk spool: every row written in the validation pass comes back, whole and in order,
// in the send pass, whatever its text (newlines, commas, brackets, any Unicode) and wherever
// the file's read chunks cut it; a file that ends mid-row is an error, not rows quietly lost.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Spool, type SpooledRow } from '../../src/bulk/spool.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tmpdir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-spool-test-'));
  dirs.push(dir);
  return dir;
}

async function readAll(spool: Spool): Promise<SpooledRow[]> {
  const rows: SpooledRow[] = [];
  for await (const chunk of spool.read()) rows.push(...chunk);
  return rows;
}

const rowArb: fc.Arbitrary<SpooledRow> = fc.oneof(
  fc.record({
    line: fc.nat(),
    item: fc.record({ campaign_id: fc.uuid(), name: fc.string({ unit: 'binary', maxLength: 40 }) }),
  }),
  fc.record({ line: fc.nat(), problem: fc.record({ field: fc.string(), message: fc.string({ unit: 'grapheme', maxLength: 60 }) }) }),
);

describe('spool', () => {
  it('gives back every row as written, in order, across read chunks (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { maxLength: 200 }), async (rows) => {
        const spool = new Spool(tmpdir());
        try {
          for (const row of rows) await spool.add(row);
          await spool.close();
          expect(await readAll(spool)).toEqual(rows);
          expect(spool.rows).toBe(rows.length);
        } finally {
          await spool.remove();
        }
      }),
      { numRuns: 50 },
    );
  });

  it('rows larger than a read chunk and many rows spanning chunks come back whole; the file is 0600', async () => {
    const spool = new Spool(tmpdir());
    const big = { line: 2, item: { campaign_id: 'c-big', name: 'é\n,]'.repeat(100_000) } };
    const many = Array.from({ length: 20_000 }, (_, i) => ({ line: i + 3, item: { campaign_id: `c${i}`, name: `name, "${i}"\n` } }));
    await spool.add(big);
    for (const row of many) await spool.add(row);
    await spool.close();
    expect(fs.statSync(spool.path).mode & 0o777).toBe(0o600);
    expect(await readAll(spool)).toEqual([big, ...many]);
    await spool.remove();
    expect(fs.existsSync(path.dirname(spool.path))).toBe(false);
  });

  it('a file cut off mid-row is an error naming the spool, not a shorter list of rows', async () => {
    const spool = new Spool(tmpdir());
    await spool.add({ line: 2, item: { campaign_id: 'c1' } });
    await spool.add({ line: 3, item: { campaign_id: 'c2' } });
    await spool.close();
    const text = fs.readFileSync(spool.path, 'utf8');
    fs.writeFileSync(spool.path, text.slice(0, text.length - 5));
    await expect(readAll(spool)).rejects.toThrow(`the spool ${spool.path} ends in the middle of a row`);
    await spool.remove();
  });
});
