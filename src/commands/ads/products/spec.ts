// `platform ads products ...`: flags, help and examples. Data only.
import { command, group, options, type FlagsOf } from '../../spec.js';
import { ACCOUNT, account, paging } from '../options-spec.js';

const listOptions = options(account, ...paging);
export type ListProductsFlags = FlagsOf<typeof listOptions>;

export const productsSpec = group({
  name: 'products',
  summary: 'The product catalog of an ad account',
  examples: [`platform ads products list --account ${ACCOUNT}`, `platform ads products list --account ${ACCOUNT} --all --query '[].gtin' -o csv`],
  subcommands: [
    command({
      name: 'list',
      summary: 'List catalog products (first page; --all for every page)',
      options: listOptions,
      examples: [`platform ads products list --account ${ACCOUNT}`, `platform ads products list --account ${ACCOUNT} --all -o csv > products.csv`],
      load: () => import('./list.js'),
    }),
  ],
});
