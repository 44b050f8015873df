// The CSV dialect of -o csv and --from-csv: the separator and the decimal mark. A spreadsheet
// saved in a locale whose decimal mark is the comma (most of Europe, Latin America, much of
// Asia) separates with semicolons and writes 1.234,56: `--delimiter ';' --decimal-comma`.
// Plain data and checks: the flags, the environment and the profile's settings all go
// through here (config/csv-dialect.ts picks which one wins).

export interface CsvDialect {
  /** One character: `,` (the default), `;`, a tab or `|`. */
  delimiter?: string;
  /** Decimals (budgets, bids, ratios) are written 1234,56 and read as 1.234,56 or 1234,56. */
  decimalComma?: boolean;
}

/** The separators a user may name, and how they are written on a command line. */
export const DELIMITERS: ReadonlyArray<{ char: string; names: readonly string[]; word: string }> = [
  { char: ',', names: [','], word: 'commas' },
  { char: ';', names: [';'], word: 'semicolons' },
  { char: '\t', names: ['tab', '\\t', '\t'], word: 'tabs' },
  { char: '|', names: ['|'], word: 'pipes' },
];

/** `--delimiter` as typed -> the character, or undefined when it is not one of DELIMITERS. */
export function delimiterOf(text: string): string | undefined {
  return DELIMITERS.find((d) => d.names.includes(text.toLowerCase()))?.char;
}

/** How a separator is typed back on a command line: `';'`, `tab`, `'|'`, `,`. */
export function delimiterFlagValue(char: string): string {
  if (char === '\t') return 'tab';
  return char === ',' ? ',' : `'${char}'`;
}

/** "semicolons", "tabs", ... */
export function delimiterWord(char: string): string {
  return DELIMITERS.find((d) => d.char === char)?.word ?? JSON.stringify(char);
}

export const DELIMITER_CHOICES = 'one of , ; | or tab (also written \\t)';
