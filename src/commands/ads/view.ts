// Shared by every `ads ... view ID`: one resource, fetched by its id, shown in full.
import type { AdsResource, AdsScope } from '../../api/ads-resources.js';
import type { Context } from '../../context.js';
import { ApiError } from '../../base/errors.js';
import { writeDetail, type DetailField } from '../../output/detail.js';
import type { View } from '../../output/columns.js';

export async function viewResource<T>(
  ctx: Context,
  resource: AdsResource,
  scope: AdsScope,
  id: string,
  fields: (item: T) => DetailField[],
  listView: View<T>,
): Promise<void> {
  const client = await ctx.client();
  const [item] = await client.ads.getByIds<T>(resource, scope, [id]);
  if (!item)
    throw new ApiError(
      404,
      'NotFound',
      `${resource.noun} ${id} not found${scope.adGroup ? ` in ad group ${scope.adGroup}` : scope.campaign ? ` in campaign ${scope.campaign}` : ` in account ${scope.account}`}`,
    );
  // -o csv: the list's columns, so `view ID -o csv` reads back as `list --id ID -o csv` does.
  await writeDetail(ctx, item, fields(item), listView);
}
