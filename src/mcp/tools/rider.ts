// The rider toolset: the products at a place, and the price of a trip.
import * as z from 'zod';
import { listOutput, offsetPage, pageSummary, pagingInput } from '../paging.js';
import { addTool, type ToolHost } from '../tool.js';

const lat = z.number().min(-90).max(90);
const lng = z.number().min(-180).max(180);

export function addRiderTools(host: ToolHost): void {
  const { ctx } = host;
  addTool(host, {
    name: 'rider_products_list',
    description: 'Ride products available at a place.',
    input: { latitude: lat, longitude: lng, ...pagingInput },
    output: listOutput,
    run: async (input) => {
      const client = await ctx.client();
      const products = (await client.rider.products({ latitude: input.latitude, longitude: input.longitude })) as unknown as Array<Record<string, unknown>>;
      const page = offsetPage(products, input.limit, input.cursor);
      return { result: page, summary: pageSummary('products', page.items.length, page.next_cursor) };
    },
  });
  addTool(host, {
    name: 'rider_estimate_price',
    description: 'Price estimates per product for a trip.',
    input: { start_latitude: lat, start_longitude: lng, end_latitude: lat, end_longitude: lng, seats: z.number().int().min(1).max(2).optional() },
    output: { prices: z.array(z.record(z.string(), z.unknown())) },
    run: async (input) => {
      const client = await ctx.client();
      const prices = (await client.rider.priceEstimates(
        { latitude: input.start_latitude, longitude: input.start_longitude },
        { latitude: input.end_latitude, longitude: input.end_longitude },
        input.seats,
      )) as unknown as Array<Record<string, unknown>>;
      return { result: { prices }, summary: `${prices.length} price estimates` };
    },
  });
}
