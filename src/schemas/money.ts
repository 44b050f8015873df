// Money is exact: amount_e5 is a string holding an integer number of 1/100000 units of
// the currency. The spec leaves the scale open; the OpenAPI example ("50000" is $0.50)
// and the field name say 10^5, so that is what we use. No value ever passes through a float.

import { shown } from './input-limits.js';

export const E5_DIGITS = 5;
/** The API's amount_e5 is an int64: the largest it can hold (budgets and bids are never negative). */
export const MAX_AMOUNT_E5 = '9223372036854775807';

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const INTEGER = /^\d+$/;

export class MoneyFormatError extends Error {}

/** "12.34" -> "1234000". Throws MoneyFormatError naming the problem. */
export function decimalToE5(input: string): string {
  const text = input.trim();
  const match = DECIMAL.exec(text);
  if (!match) {
    throw new MoneyFormatError(`${shown(input)} is not a decimal amount (expected digits with an optional "." and up to ${E5_DIGITS} decimals, e.g. 12.34)`);
  }
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (fraction.length > E5_DIGITS) {
    throw new MoneyFormatError(`${shown(input)} has ${fraction.length} decimals; at most ${E5_DIGITS} are representable exactly`);
  }
  const e5 = stripLeadingZeros(whole + fraction.padEnd(E5_DIGITS, '0'));
  if (!withinInt64(e5)) throw new MoneyFormatError(`${shown(input)} is more than the largest amount, ${e5ToDecimal(MAX_AMOUNT_E5)}`);
  return e5;
}

/** "1234000" -> "12.34"; keeps at least two decimals ("100000" -> "1.00"). */
export function e5ToDecimal(amountE5: string): string {
  if (!INTEGER.test(amountE5)) throw new MoneyFormatError(`${shown(amountE5)} is not an amount_e5 (a string of digits)`);
  const digits = amountE5.padStart(E5_DIGITS + 1, '0');
  const whole = stripLeadingZeros(digits.slice(0, -E5_DIGITS));
  let fraction = digits.slice(-E5_DIGITS).replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${whole}.${fraction}`;
}

/** A string of digits the API's int64 can hold. */
export function isAmountE5(value: string): boolean {
  return INTEGER.test(value) && withinInt64(stripLeadingZeros(value));
}

/** Digits without leading zeros, compared with MAX_AMOUNT_E5 as text (no float ever sees them). */
function withinInt64(digits: string): boolean {
  return digits.length < MAX_AMOUNT_E5.length || (digits.length === MAX_AMOUNT_E5.length && digits <= MAX_AMOUNT_E5);
}

function stripLeadingZeros(digits: string): string {
  const stripped = digits.replace(/^0+/, '');
  return stripped === '' ? '0' : stripped;
}

/**
 * "$12.50" for display: one locale (en-US) for every currency, so columns line up ("12,50 €"
 * is not wanted). Intl formats decimal strings exactly (minor units turned into a decimal string).
 */
export function formatMoney(amount: number | string, currency: string, digits = 2): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount as number);
}
