// `platform help reports`: dates, ranges and units of the ads reports, and how `reports run` fetches one.
import type { HelpTopic } from './topic.js';

export const reportsTopic: HelpTopic = {
  name: 'reports',
  summary: 'Ads reports: dates, ranges, units, downloads',
  text: () => `Ads reports (platform ads reports run|create|sync).

Dates and times are UTC. --until is exclusive, as the API's end_time is:
"--since 2025-01-13 --until 2025-01-20" is the week of Monday the 13th.

DAILY and SUMMARY ranges run midnight to midnight, WEEKLY Monday to Monday, MONTHLY the 1st to the 1st, HOURLY whole hours.

--last N is the last N whole hours, days, weeks or months before the current one:
--last 7d is the seven whole days before today (4w: the four whole weeks before this one; 3m: the three months before this one; 24h: the 24 whole hours before this one).

The unit adds its time column (day_of, week_of, month_of, hour_of) first unless --columns names it. --columns lists the columns in order: the time column of the unit, dimensions and metrics; platform ads reports types lists each type's columns and units.

--filter is repeatable: column=value, column!=value, column=v1,v2 (any of), or column=OPERATOR:values (EQUAL, NOT_EQUAL, IN); only dimensions can be filtered.

Bad input (an unknown type or column, a range not aligned to the unit, a filter on a column that is not a dimension) exits 2 and sends nothing.

reports run creates a report job, polls it with back-off until it is COMPLETED (a spinner with the status and the time waited on a terminal), then streams the CSV to --out or stdout with a progress bar. The download goes to a separate origin by a pre-signed URL that expires: the bearer token is never sent there, and an expired URL is renewed once. A FAILED report exits 1 with its reason; --timeout and Ctrl-C print the report id and the command that waits for it again.

--out FILE: where the CSV goes (- for stdout; default: stdout when piped, REPORT_ID.csv on a terminal). An existing file is left alone and the command exits 2, unless --force replaces it.

reports create prints the job's id; follow it with reports get and reports download --wait. reports sync returns the rows at once (DAILY or HOURLY, not every type), typed by the schema the API returns: numbers are numbers in JSON and right-aligned in tables.
`,
};
