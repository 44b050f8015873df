// Zod schemas of the rider API v1.2 resources (spec 2.8, 4.4, 7.2) and the delivery quote
// (spec 4.3): one per resource. The CLI checks what it sends with the request schemas and
// reads responses through the inferred types; the sandbox validates request bodies and
// builds its responses with the same ones. Response schemas are loose (z.object) because
// new attributes must be tolerated (spec 9.2). Money here is what the API sends: floats.
import * as z from 'zod';

import { HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT, MAX_SEATS, MAX_TRIP_MILES, PLACE_IDS } from './rider-limits.js';

export { HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT, MAX_SEATS, MAX_TRIP_MILES, PLACE_IDS };
export const PRODUCT_GROUPS = ['rideshare', 'platformx', 'platformxl', 'platformblack', 'suv', 'taxi'] as const;

/**
 * Ride request statuses. The spec names processing, accepted, in_progress and completed
 * and leaves the list open (spec 3); the others are the ones a ride needs to end or be
 * picked up: arriving, no_drivers_available, rider_canceled, driver_canceled.
 */
export const RIDE_STATUSES = [
  'processing',
  'no_drivers_available',
  'accepted',
  'arriving',
  'in_progress',
  'driver_canceled',
  'rider_canceled',
  'completed',
] as const;
export type RideStatus = (typeof RIDE_STATUSES)[number];
/** After these a ride never changes again. */
export const FINAL_STATUSES: readonly RideStatus[] = ['completed', 'rider_canceled', 'driver_canceled', 'no_drivers_available'];

/** Missing parameters are marked "Required" (spec 7.2); present but malformed ones say why. */
const number = () => z.number({ error: (issue) => (issue.input === undefined ? 'Required' : 'must be a number') });
const latitude = number().min(-90, 'must be from -90 to 90').max(90, 'must be from -90 to 90');
const longitude = number().min(-180, 'must be from -180 to 180').max(180, 'must be from -180 to 180');
const seatCount = z.number().int('must be a whole number').min(1, 'must be at least 1');

export const PriceDetails = z.object({
  base: z.number(),
  minimum: z.number(),
  cost_per_minute: z.number(),
  cost_per_distance: z.number(),
  cancellation_fee: z.number(),
  distance_unit: z.enum(['mile', 'km']),
  currency_code: z.string(),
  service_fees: z.array(z.object({ name: z.string(), fee: z.number() })),
});
export type PriceDetails = z.infer<typeof PriceDetails>;

export const Product = z.object({
  product_id: z.string(),
  display_name: z.string(),
  description: z.string(),
  short_description: z.string(),
  image: z.string(),
  capacity: z.number().int(),
  product_group: z.enum(PRODUCT_GROUPS),
  cash_enabled: z.boolean(),
  shared: z.boolean(),
  upfront_fare_enabled: z.boolean(),
  price_details: PriceDetails.nullable(),
});
export type Product = z.infer<typeof Product>;

export const PriceEstimate = z.object({
  product_id: z.string(),
  currency_code: z.string().nullable(),
  display_name: z.string(),
  localized_display_name: z.string(),
  estimate: z.string(),
  minimum: z.number().int(),
  low_estimate: z.number().int().nullable(),
  high_estimate: z.number().int().nullable(),
  surge_multiplier: z.number(),
  duration: z.number().int(),
  distance: z.number(),
});
export type PriceEstimate = z.infer<typeof PriceEstimate>;

export const TimeEstimate = z.object({
  product_id: z.string(),
  display_name: z.string(),
  localized_display_name: z.string(),
  estimate: z.number().int(),
});
export type TimeEstimate = z.infer<typeof TimeEstimate>;

/** GET /estimates/price query, as numbers (the sandbox parses the query strings into this). */
export const PriceEstimateQuery = z.strictObject({
  start_latitude: latitude,
  start_longitude: longitude,
  end_latitude: latitude,
  end_longitude: longitude,
  seat_count: seatCount.max(MAX_SEATS, `must be at most ${MAX_SEATS}`).optional(),
});

export const TimeEstimateQuery = z.strictObject({
  start_latitude: latitude,
  start_longitude: longitude,
  product_id: z.string().min(1).optional(),
});

export type PlaceId = (typeof PLACE_IDS)[number];
const placeId = z.enum(PLACE_IDS, { error: `must be ${PLACE_IDS.join(' or ')}` });

/**
 * GET/PUT /places/{place_id}: the spec leaves the shape open; this is the one the public
 * Riders API documented (GET answers {address}, PUT takes and answers {address}).
 */
export const Place = z.object({ address: z.string() });
export type Place = z.infer<typeof Place>;
export const PutPlaceBody = z.strictObject({ address: z.string().trim().min(1, 'Required') });

/**
 * A trip's ends: coordinates or a saved place (spec 4.4: "one of these or start_place_id").
 * Coordinates win when both are given; the sandbox resolves a place to its coordinates.
 */
const tripEnds = {
  start_latitude: latitude.optional(),
  start_longitude: longitude.optional(),
  start_place_id: placeId.optional(),
  end_latitude: latitude.optional(),
  end_longitude: longitude.optional(),
  end_place_id: placeId.optional(),
};

type Ends = { start_latitude?: number; start_longitude?: number; start_place_id?: PlaceId };

/** The start is required: both coordinates, or start_place_id (missing ones are "Required", spec 7.2). */
function requireStart(body: Ends, ctx: z.RefinementCtx): void {
  if (body.start_place_id !== undefined) return;
  for (const name of ['start_latitude', 'start_longitude'] as const) {
    if (body[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'Required' });
  }
}

/** POST /requests/estimate body (spec 4.4). */
export const RequestEstimateBody = z
  .object({
    product_id: z.string().min(1).optional(),
    ...tripEnds,
    seat_count: seatCount.optional(),
  })
  .superRefine(requireStart);
export type RequestEstimateBody = z.infer<typeof RequestEstimateBody>;

/** POST /requests body (spec 4.4). fare_id is required for upfront-fare products. */
export const CreateRequestBody = z
  .object({
    fare_id: z.string().min(1).optional(),
    product_id: z.string().min(1, 'Required'),
    ...tripEnds,
    start_nickname: z.string().optional(),
    start_address: z.string().optional(),
    end_nickname: z.string().optional(),
    end_address: z.string().optional(),
    surge_confirmation_id: z.string().optional(),
    payment_method_id: z.string().optional(),
    seat_count: seatCount.optional(),
    expense_code: z
      .string()
      .regex(/^[A-Za-z0-9]*$/, 'must be alphanumeric')
      .optional(),
    expense_memo: z.string().optional(),
  })
  .superRefine(requireStart);
export type CreateRequestBody = z.infer<typeof CreateRequestBody>;

export const FareBreakdownItem = z.object({
  low_amount: z.number(),
  high_amount: z.number(),
  display_amount: z.string(),
  display_name: z.string(),
});

export const RequestEstimate = z.object({
  price: z.object({
    surge_confirmation_href: z.string().nullable(),
    surge_confirmation_id: z.string().nullable(),
    surge_multiplier: z.number(),
    minimum: z.number().int(),
    low_estimate: z.number().int().optional(),
    high_estimate: z.number().int().optional(),
    display: z.string().optional(),
    currency_code: z.string().nullable().optional(),
    fare_breakdown: z.array(FareBreakdownItem).optional(),
    fare_id: z.string().optional(),
    expires_at: z.number().int().optional(),
  }),
  trip: z.object({ distance_estimate: z.number(), distance_unit: z.enum(['mile', 'km']), duration_estimate: z.number().int() }).nullable(),
  pickup_estimate: z.number().int().nullable(),
});
export type RequestEstimate = z.infer<typeof RequestEstimate>;

/** The spec leaves vehicle, driver and location open; the sandbox fills these fields. */
export const RideRequest = z.object({
  request_id: z.string(),
  product_id: z.string(),
  status: z.enum(RIDE_STATUSES),
  vehicle: z.object({ make: z.string(), model: z.string(), license_plate: z.string() }).nullable(),
  driver: z.object({ name: z.string(), phone_number: z.string(), rating: z.number() }).nullable(),
  location: z.object({ latitude: z.number(), longitude: z.number(), bearing: z.number() }).nullable(),
  eta: z.number().int().nullable(),
  surge_multiplier: z.number().nullable(),
});
export type RideRequest = z.infer<typeof RideRequest>;

/** PATCH /requests/{request_id}: a new destination (coordinates, or a saved place), with an optional address. */
export const UpdateRequestBody = z
  .strictObject({
    end_latitude: latitude.optional(),
    end_longitude: longitude.optional(),
    end_address: z.string().optional(),
    end_nickname: z.string().optional(),
    end_place_id: placeId.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.end_place_id !== undefined) return;
    const given = ['end_latitude', 'end_longitude'] as const;
    if (given.every((name) => body[name] === undefined)) {
      for (const name of given) ctx.addIssue({ code: 'custom', path: [name], message: 'Required' });
      return;
    }
    for (const name of given) if (body[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'Required' });
  });
export type UpdateRequestBody = z.infer<typeof UpdateRequestBody>;

/** GET /requests/{request_id}/map (shape not shown in the spec; the public Riders API's). */
export const RideMap = z.object({ request_id: z.string(), href: z.string() });
export type RideMap = z.infer<typeof RideMap>;

export const SurgeConfirmation = z.object({
  href: z.string(),
  surge_confirmation_id: z.string(),
  multiplier: z.number(),
  expires_at: z.number().int(),
});
export type SurgeConfirmation = z.infer<typeof SurgeConfirmation>;

/** Spec 7.2: {message, code, fields?}; some errors {status, code, title}; surge: {meta, errors}. */
export const RiderErrorBody = z.object({
  code: z.string().optional(),
  message: z.string().optional(),
  title: z.string().optional(),
  fields: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  meta: z.object({ surge_confirmation: SurgeConfirmation }).optional(),
  errors: z.array(z.object({ status: z.number(), code: z.string(), title: z.string() })).optional(),
});
export type RiderErrorBody = z.infer<typeof RiderErrorBody>;

/** Receipt of a completed ride (shape not shown in the spec; the sandbox's). */
export const Receipt = z.object({
  request_id: z.string(),
  charges: z.array(z.object({ name: z.string(), amount: z.number(), type: z.string() })),
  surge_charge: z.object({ name: z.string(), amount: z.number() }).nullable(),
  subtotal: z.number(),
  total_charged: z.number(),
  currency_code: z.string(),
  duration: z.number().int(),
  distance: z.number(),
  distance_label: z.string(),
  expense_code: z.string().nullable(),
  expense_memo: z.string().nullable(),
});
export type Receipt = z.infer<typeof Receipt>;

/** One trip of GET /history (shape not shown in the spec; the sandbox's). */
export const HistoryItem = z.object({
  request_id: z.string(),
  product_id: z.string(),
  status: z.enum(RIDE_STATUSES),
  distance: z.number(),
  request_time: z.number().int(),
  start_time: z.number().int().nullable(),
  end_time: z.number().int().nullable(),
  start_city: z.object({ display_name: z.string(), latitude: z.number(), longitude: z.number() }),
});
export type HistoryItem = z.infer<typeof HistoryItem>;

export const History = z.object({ offset: z.number().int(), limit: z.number().int(), count: z.number().int(), history: z.array(HistoryItem) });
export type History = z.infer<typeof History>;

/** PATCH /me (spec 4.4 names it "apply a promotion"; field names are the sandbox's). */
export const PatchMeBody = z.strictObject({ applied_promotion_codes: z.string().min(1, 'Required') });
export const AppliedPromotion = z.object({ promotion_code: z.string(), description: z.string() });
export type AppliedPromotion = z.infer<typeof AppliedPromotion>;

/** Sandbox control (not part of the real API). */
export const SandboxRequestStatusBody = z.strictObject({ status: z.enum(RIDE_STATUSES) });
export const SandboxProductBody = z
  .strictObject({ surge_multiplier: z.number().min(1, 'must be at least 1').optional(), drivers_available: z.boolean().optional() })
  .refine((b) => b.surge_multiplier !== undefined || b.drivers_available !== undefined, 'give surge_multiplier and/or drivers_available');

/** Delivery quote (spec 4.3; the response is not shown there: the sandbox's). Fee in minor units. */
export const DeliveryQuoteBody = z.object({
  pickup_address: z.string().trim().min(1, 'Required'),
  dropoff_address: z.string().trim().min(1, 'Required'),
});
export const DeliveryQuote = z.object({
  kind: z.literal('delivery_quote'),
  id: z.string(),
  created: z.string(),
  expires: z.string(),
  /** Integer, minor units of the currency (cents). */
  fee: z.number().int(),
  currency: z.string(),
  pickup_duration: z.number().int(),
  duration: z.number().int(),
  dropoff_eta: z.string(),
});
export type DeliveryQuote = z.infer<typeof DeliveryQuote>;
