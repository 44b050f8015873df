import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToE5, e5ToDecimal, isAmountE5, MAX_AMOUNT_E5, MoneyFormatError } from '../../src/schemas/money.js';

const INT64_MAX = 2n ** 63n - 1n;

describe('money: decimal <-> amount_e5 by string arithmetic', () => {
  it.each([
    ['12.34', '1234000'],
    ['0.5', '50000'],
    ['0.00001', '1'],
    ['1', '100000'],
    ['007.10', '710000'],
    ['90071992547409.93', '9007199254740993000'], // beyond 2^53: a float would lose it
  ])('%s -> %s', (decimal, e5) => {
    expect(decimalToE5(decimal)).toBe(e5);
  });

  it.each(['12.345678', 'ten', '-1', '1e3', '', '1.', '.5', '1,5'])('refuses %j', (input) => {
    expect(() => decimalToE5(input)).toThrow(MoneyFormatError);
  });

  it('formats amount_e5 with at least two decimals', () => {
    expect(e5ToDecimal('1234000')).toBe('12.34');
    expect(e5ToDecimal('100000')).toBe('1.00');
    expect(e5ToDecimal('1')).toBe('0.00001');
    expect(e5ToDecimal('0')).toBe('0.00');
  });

  it('round-trips any amount_e5 exactly (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: INT64_MAX }), (n) => {
        expect(decimalToE5(e5ToDecimal(n.toString()))).toBe(n.toString());
      }),
    );
  });

  it('round-trips any decimal with up to 5 places to its canonical form (property)', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 0n, max: INT64_MAX / 100000n - 1n }), fc.integer({ min: 0, max: 99999 }), fc.integer({ min: 0, max: 5 }))
      .map(([whole, fraction, places]) => (places === 0 ? whole.toString() : `${whole}.${fraction.toString().padStart(5, '0').slice(0, places)}`));
    fc.assert(
      fc.property(decimal, (text) => {
        const e5 = decimalToE5(text);
        expect(BigInt(e5)).toBe(BigInt(text.split('.')[0]!) * 100000n + BigInt((text.split('.')[1] ?? '').padEnd(5, '0')));
        expect(decimalToE5(e5ToDecimal(e5))).toBe(e5);
      }),
    );
  });

  it('holds amounts to the int64 of the API: the largest passes, one more is refused', () => {
    expect(MAX_AMOUNT_E5).toBe(INT64_MAX.toString());
    expect(decimalToE5('92233720368547.75807')).toBe(MAX_AMOUNT_E5);
    expect(() => decimalToE5('92233720368547.75808')).toThrow(/more than the largest amount, 92233720368547\.75807/);
    expect(isAmountE5(MAX_AMOUNT_E5)).toBe(true);
    expect(isAmountE5(`000${MAX_AMOUNT_E5}`)).toBe(true);
    expect(isAmountE5((INT64_MAX + 1n).toString())).toBe(false);
  });

  it('refuses any amount past int64 (property), its echo cut to 80 characters', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: INT64_MAX + 1n, max: 10n ** 400n }), (n) => {
        expect(isAmountE5(n.toString())).toBe(false);
        const decimal = `${n}.5`;
        expect(() => decimalToE5(decimal)).toThrow(MoneyFormatError);
        try {
          decimalToE5(decimal);
        } catch (error) {
          const echoed = /^"([^"]*)"/.exec((error as Error).message)![1]!;
          expect(echoed.length).toBeLessThanOrEqual(80);
        }
      }),
    );
  });
});
