// `platform help csv`: the CSV columns of --from-csv (and of list -o csv), per resource, and
// what the field flags' one line of --help leaves out.
import { columnsHelp } from '../../bulk/input/csv-columns.js';
import { table, type HelpTopic } from './topic.js';

const flagNotes: Array<[string, string]> = [
  ['--budget', 'converted exactly to amount_e5 = amount x 10^5 (the spec leaves the scale open, the field name states it)'],
  ['--budget-e5', 'the raw amount_e5 integer, e.g. 1234000 for 12.34'],
  ['--currency', "a patch: the resource's own when not given (another one is refused)"],
  ['--bid', 'sets manual bidding'],
  ['--roas-goal', 'the return on ad spend to aim for, instead of --bid or --auto-bid'],
  ['--daypart', 'days are mon..sun, ranges (mon-fri) or lists (sat,sun); 24:00 ends the day; repeat the flag for more entries'],
  ['--no-platform-one', 'stop targeting Platform One members; the other targeting criteria stay'],
  ['--clear FIELD', 'sends the field empty: the API removes it whole'],
];

const localeNotes: Array<[string, string]> = [
  ['--delimiter CHAR', "the separator of --from-csv and -o csv: , (the default), ';', '|', or tab (also \\t)"],
  ['--decimal-comma', 'decimal cells (budget, bid, roas_goal) with a comma: 1.234,56, 1 234,56 and 1234,56 read as 1234.56; -o csv writes 1234,56'],
  ['', '1.234 alone is refused as ambiguous (1234 or 1,234?), as is a malformed decimal: a problem of its row and column'],
  ['', "with ';' or --decimal-comma, -o csv starts with a UTF-8 BOM, as Excel's CSV UTF-8 does; --from-csv skips it"],
  ['', 'a semicolon file read without them is refused, naming both flags; nothing is sent'],
  [
    'config set',
    "csv_delimiter ';' and csv_decimal_comma true: the profile's default (flags, then PLATFORM_CSV_DELIMITER and PLATFORM_CSV_DECIMAL_COMMA, win)",
  ],
];

export const csvTopic: HelpTopic = {
  name: 'csv',
  summary: 'CSV columns and field flags of ads resources',
  text: () =>
    `The columns --from-csv reads are the ones list -o csv writes, so platform ads ... list -o csv | (edit) | platform ads ... patch --from-csv - round-trips.

Campaigns (platform ads campaigns create|patch):
${columnsHelp('campaigns')}

Ad groups (platform ads ad-groups create|patch):
${columnsHelp('ad_groups')}

Ads (platform ads ads patch):
${columnsHelp('ads')}

Spreadsheets of any locale: Excel and others in a comma-decimal locale (most of Europe, Latin America, much of Asia) save CSV with semicolons and decimals like 1.234,56. Read and write that with --delimiter ';' --decimal-comma:
${table(localeNotes)}

The field flags of create and patch set the same fields; what their one line of --help leaves out:
${table(flagNotes)}
`,
};
