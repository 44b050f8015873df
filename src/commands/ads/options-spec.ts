// Flags shared by the ads command specs (ads, reports, products). Data only.
import { MAX_PAGE_LIMIT } from '../../schemas/limits.js';
import { option, options } from '../spec.js';

/** The sandbox's first ad account: examples use it so they run as written against `platform sandbox serve`. */
export const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';

/**
 * --account. Declared `required` so that every command's flags type it as a string, which it
 * is by the time a command runs; on the command line it is optional: withAccountDefault
 * (account-default.ts) takes `required` off for the parser and fills the value from
 * PLATFORM_ACCOUNT or the profile's setting.
 */
export const account = option({
  flags: '--account <id>',
  description: "ad account id (default: $PLATFORM_ACCOUNT, else the profile's `platform config set account ID`)",
  required: true,
  kind: 'id',
});

export const paging = options(
  option({ flags: '--all', description: `fetch every page (pages of ${MAX_PAGE_LIMIT}, streamed)` }),
  option({ flags: '-L, --limit <n>', description: 'stop after n items', kind: 'int' }),
  option({ flags: '--page-token <token>', description: 'start at this page (the token a previous page printed on stderr)' }),
  option({ flags: '--page-limit <n>', description: `items per request, 1-${MAX_PAGE_LIMIT} (default: the API's page size)`, kind: 'int' }),
);
