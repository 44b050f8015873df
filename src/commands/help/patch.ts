// `platform help patch`: what an ads patch changes, and what it checks before it sends.
import type { HelpTopic } from './topic.js';

export const patchTopic: HelpTopic = {
  name: 'patch',
  summary: 'What an ads patch changes: only the fields given',
  text: () => `Patches (platform ads campaigns|ad-groups|ads patch) change only the fields given.

The current resources are read first, so a budget amount keeps its unit, --end keeps the start, --keywords keeps the other criteria (the API replaces budget, schedule and targeting whole; the read and the write are not atomic).

An amount without a currency is in the resource's own, and another currency is refused.

Rows that only the current values can judge (these, a budget unit alone, ad_product) are checked against them before anything is sent, and one at fault refuses the run (exit 2, nothing sent), naming its line and id.

A row that would change nothing is reported unchanged and not sent.

A field is removed with --clear FIELD (repeatable: budget, targeting, dayparting_schedule), or in a CSV with [] in any of its columns. Both send the empty object, as the OpenAPI's text says ("Providing an empty budget removes the budget"), although its schema requires the object's keys: a gateway that validates requests against that schema refuses it with a 4xx, which the row reports with the gateway's reason (nothing applied); --no-platform-one stops targeting Platform One members and keeps the other criteria.

Ads have only a name to change (the API's update-ads).

See also: platform help bulk (how every run goes), platform help csv (columns).
`,
};
