// The line that shows a request estimate before asking (chatter, on stderr).
import type { RequestEstimate, Product } from '../../../schemas/rider.js';

export function fareLine(product: Product, estimate: RequestEstimate, nowMs: number): string {
  const { price, trip, pickup_estimate: pickup } = estimate;
  const parts = [`${product.display_name}: ${price.display ?? `minimum ${price.minimum}`}`];
  if (price.surge_multiplier > 1) parts.push(`surge x${price.surge_multiplier} included`);
  if (trip) parts.push(`${trip.distance_estimate} ${trip.distance_unit === 'km' ? 'km' : 'mi'}, about ${Math.round(trip.duration_estimate / 60)} min`);
  parts.push(pickup === null ? 'no driver near now' : `pickup in about ${pickup} min`);
  if (price.expires_at) parts.push(`fare valid for ${Math.max(0, Math.round(price.expires_at - nowMs / 1000))} s`);
  return parts.join(', ');
}
