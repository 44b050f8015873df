// The parsers the ads field tables name (ads-fields.ts): one CSV cell (or the cell a flag
// fills) -> the value the API body holds. A bad cell throws a FieldParseError with the
// message the row mapping reports against its column. Kept apart from the tables so that
// `--help`, which reads the tables, loads none of this.
import { DaypartingError, parseDayparting } from './dayparting.js';
import { adGroupStatus, adProduct, budgetUnit, campaignStatus, inputMatchType } from './friendly.js';
import { shown } from './input-limits.js';
import { decimalToE5, isAmountE5, MAX_AMOUNT_E5, MoneyFormatError } from './money.js';
import type { ParserName } from './ads-fields.js';

export class FieldParseError extends Error {}

/** `pizza| pasta |` -> ['pizza', 'pasta']. */
export const splitCell = (cell: string): string[] =>
  cell
    .split('|')
    .map((s) => s.trim())
    .filter(Boolean);

function enumValue<T>(cell: string, map: { toApi: (s: string) => T | undefined; friendly: string[] }): T {
  const value = map.toApi(cell);
  if (value === undefined) throw new FieldParseError(`${shown(cell)} is not one of ${map.friendly.join(', ')}`);
  return value;
}

export function booleanValue(cell: string): boolean {
  const value = cell.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(value)) return true;
  if (['false', 'no', '0'].includes(value)) return false;
  throw new FieldParseError(`${shown(cell)} is not true or false`);
}

/**
 * USD (usd is read as USD). Checked here, not only by the schema: a patch's budget is merged
 * into the current one before the schema sees it, so a bad code would first cost a read.
 */
export function currencyValue(cell: string): string {
  if (!/^[A-Za-z]{3}$/.test(cell)) throw new FieldParseError('must be a three-letter ISO 4217 code, e.g. USD');
  return cell.toUpperCase();
}

export function amountE5Value(cell: string): string {
  if (!/^\d+$/.test(cell)) throw new FieldParseError(`${shown(cell)} is not a whole number of 1/100000 units`);
  if (!isAmountE5(cell)) throw new FieldParseError(`${shown(cell)} is more than ${MAX_AMOUNT_E5}, the largest amount_e5`);
  return cell.replace(/^0+(?=\d)/, '');
}

export function decimalAmountValue(cell: string): string {
  try {
    return decimalToE5(cell);
  } catch (error) {
    if (error instanceof MoneyFormatError) throw new FieldParseError(error.message);
    throw error;
  }
}

/**
 * A decimal written with a decimal comma (--decimal-comma) as the same decimal with a point:
 * 1.234,56, 1 234,56 and 1234,56 -> 1234.56; 12 -> 12. A point (or a space) only groups
 * thousands, in groups of three. `1.234` alone is refused: a thousand grouped, or 1.234 from a
 * file with decimal points; a guess would be a budget off by a factor of 1000.
 */
export function decimalPointOf(cell: string): string {
  const text = cell.trim();
  const match = /^([+-]?)(\d{1,3}(?:([. \u00a0\u202f])\d{3})(?:\3\d{3})*|\d+)(?:,(\d+))?$/.exec(text);
  if (!match) {
    throw new FieldParseError(
      `${shown(cell)} is not a decimal written with a decimal comma (--decimal-comma), e.g. 1234,56 or 1.234,56` +
        (/^\d+\.\d+$/.test(text) ? '; a point only groups thousands there' : ''),
    );
  }
  const [, sign, whole, grouping, fraction] = match;
  const digits = whole!.replace(/[. \u00a0\u202f]/g, '');
  // 1.234.567 can only be grouped; 1.234 could be either.
  if (grouping === '.' && fraction === undefined && whole!.split('.').length === 2)
    throw new FieldParseError(`${shown(cell)} is ambiguous with --decimal-comma (${digits}, or ${whole!.replace('.', ',')}?): write ${digits} or ${whole},00`);
  return `${sign}${digits}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** A cell of a decimal column written with a comma where a point is read (the hint of a CSV without --decimal-comma). */
export function looksDecimalComma(cell: string): boolean {
  return /^\d{1,3}(\.\d{3})*,\d+$|^\d+,\d+$/.test(cell.trim());
}

/** The parsers of decimal cells: with --decimal-comma, their cells are read by decimalPointOf first. */
export const DECIMAL_PARSERS: ReadonlySet<ParserName> = new Set(['decimalAmount', 'number']);

/** Every parser a table may name: a new name fails typecheck here until it is implemented. */
export const FIELD_PARSERS: Record<ParserName, (cell: string) => unknown> = {
  text: (cell) => cell,
  campaignStatus: (cell) => enumValue(cell, campaignStatus),
  adGroupStatus: (cell) => enumValue(cell, adGroupStatus),
  decimalAmount: decimalAmountValue,
  amountE5: amountE5Value,
  currency: currencyValue,
  budgetUnit: (cell) => enumValue(cell, budgetUnit),
  adProduct: (cell) => enumValue(cell, adProduct),
  bidding: (cell) => {
    const kind = cell.trim().toLowerCase();
    if (kind !== 'auto' && kind !== 'manual' && kind !== 'goal_based') throw new FieldParseError(`${shown(cell)} is not auto, manual or goal_based`);
    return { [kind]: {} };
  },
  time: (cell) => cell,
  list: splitCell,
  matchType: (cell) => enumValue(cell, inputMatchType),
  boolean: booleanValue,
  presence: booleanValue,
  number: (cell) => {
    const value = Number(cell);
    if (!Number.isFinite(value)) throw new FieldParseError(`${shown(cell)} is not a number`);
    return value;
  },
  dayparting: (cell) => {
    try {
      return parseDayparting(cell.split('|'));
    } catch (error) {
      if (error instanceof DaypartingError) throw new FieldParseError(error.message);
      throw error;
    }
  },
};
