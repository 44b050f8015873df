// `platform help reports`: dates, ranges and units of the ads reports, and how `reports run` fetches one.
import type { HelpTopic } from './topic.js';

export const reportsTopic: HelpTopic = {
  name: 'reports',
  summary: 'Ads reports: ranges, units, top-N, downloads',
  text: () => `Ads reports (platform ads reports run|create|sync).

Last week's five campaigns with the highest spend, in one command:
  platform ads reports run --account ID --type CAMPAIGN_PERFORMANCE --last 1w --unit summary --sort -ad_spend --limit 5

Dates and times are UTC. --until is exclusive, as the API's end_time is:
"--since 2025-01-13 --until 2025-01-20" is the week of Monday the 13th.

DAILY and SUMMARY ranges run midnight to midnight, WEEKLY Monday to Monday, MONTHLY the 1st to the 1st, HOURLY whole hours.

--last N is the last N whole hours, days, weeks or months before the current one, whatever the unit: run on Wednesday 2026-11-25, --last 1w is 2026-11-16 .. 2026-11-23 (Monday to Monday) for --unit weekly, summary and daily alike; --last 7d is the seven whole days before today; 3m the three months before this one; 24h the 24 whole hours before this one. A unit that needs other edges refuses it (--unit weekly with --last 7d: give weeks).

Every reports command says the range it covers, "2026-11-16 .. 2026-11-23, UTC, end exclusive": on stderr, or on a terminal in the caption line above the table. reports get shows a report's type, unit and range (for reports created from this machine: the API does not return them; they are noted in the state folder).

Without --columns a report has its type's default columns (the entity, its currency, impressions, clicks, ad_spend, orders and sales); platform ads reports types lists them, and each type's columns and units. --columns lists the columns in order: the time column of the unit, dimensions and metrics. The unit adds its time column (day_of, week_of, month_of, hour_of) first unless --columns names it.

--sort COLUMN sorts the rows, printed or saved with --out (-COLUMN: largest first; repeat it for ties), and --limit N keeps the first N. Tables show money with its currency (722.67 USD); JSON has numbers, CSV the API's text.

--unit summary is one row per entity over the whole range. reports sync has no summary form in the API: sync --unit summary asks for daily rows and sums counts and money per entity; a ratio (click_through_rate, cost_per_click, roas_7d_on_click_date, ...) cannot be summed and is refused: use reports run --unit summary.

--filter is repeatable: column=value, column!=value, column=v1,v2 (any of), or column=OPERATOR:values (EQUAL, NOT_EQUAL, IN); only dimensions can be filtered.

Bad input (an unknown type or column, a range not aligned to the unit, a filter on a column that is not a dimension, a flag that does not apply) exits 2 and sends nothing.

reports run creates a report job, polls it with back-off until it is COMPLETED (a spinner with the status and the time waited on a terminal), then prints its rows in the -o format (a table on a terminal, JSON when piped, -o csv for CSV), or with --out FILE saves the API's CSV as it is (with a progress bar; -o and --query do not apply to it and are refused). With --out, --sort and --limit keep the API's header, cells and line ends and only reorder and cut its rows: --sort holds the rows in memory (with a --limit up to 10,000, only the top N as the file streams by), --limit alone stops the download after the first N. The download goes to a separate origin by a pre-signed URL that expires: the bearer token is never sent there, and an expired URL is renewed once. A FAILED report exits 1 with its reason; --timeout and Ctrl-C print the report id and the command that waits for it again.

reports download ID saves the CSV to --out (- for stdout; default: stdout when piped, on a terminal a file named after the type and range, campaign-performance_2026-11-16_2026-11-23.csv, or REPORT_ID.csv for a report created elsewhere). An existing file is left alone and the command exits 2, unless --force replaces it.

reports create prints the job's id; follow it with reports get and reports download --wait. reports sync returns the rows at once (DAILY or HOURLY, or summary as above; not every type), typed by the schema the API returns: numbers are numbers in JSON and right-aligned in tables.
`,
};
