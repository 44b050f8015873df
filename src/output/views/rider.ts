// How rider and delivery resources look in tables and CSV. JSON carries the API's raw
// objects (floats as sent); tables format money with its currency.
import type {
  DeliveryQuote,
  HistoryItem,
  Place,
  PriceEstimate,
  Product,
  Receipt,
  RequestEstimate,
  RideMap,
  RideRequest,
  TimeEstimate,
} from '../../schemas/rider.js';
import type { UserProfile } from '../../schemas/user-profile.js';
import { formatMoney } from '../../schemas/money.js';
import type { View } from '../columns.js';

/** Integer minor units (cents) -> "12.34" by string arithmetic, no float. */
export function minorToDecimal(minor: number): string {
  const digits = String(Math.abs(minor)).padStart(3, '0');
  return `${minor < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

const minutes = (seconds: number | null | undefined) => (seconds === null || seconds === undefined ? undefined : `${Math.round(seconds / 60)} min`);
const surge = (m: number | null | undefined) => (m && m > 1 ? `x${m}` : '');
const time = (s: number | null) => (s === null ? undefined : new Date(s * 1000).toISOString());
/** "2026-11-28 22:39Z" in tables, as `runs list` shows when: the seconds are noise there. */
const minute = (s: number | null) => (s === null ? undefined : `${new Date(s * 1000).toISOString().slice(0, 16).replace('T', ' ')}Z`);
/** "3.16 km" in tables, as history and estimates show distance; the API's label in CSV. */
const SHORT_UNITS: Readonly<Record<string, string>> = { miles: 'mi', kilometers: 'km' };
const distanceUnit = (label: string) => SHORT_UNITS[label] ?? label;
/** "7.00 USD" for -o text: the decimal with its currency, as the ads tables show money. */
const decimalMoney = (value: number | null | undefined, currency: string | null | undefined) =>
  value === null || value === undefined || !currency ? undefined : `${value.toFixed(2)} ${currency}`;

export const productView: View<Product> = {
  noun: 'products',
  columns: [
    { header: 'ID', name: 'product_id', csv: (p) => p.product_id, kind: 'id' },
    { header: 'NAME', name: 'display_name', csv: (p) => p.display_name, kind: 'text' },
    { header: 'GROUP', name: 'product_group', csv: (p) => p.product_group, priority: 3 },
    { header: 'SEATS', name: 'capacity', csv: (p) => String(p.capacity), priority: 4 },
    { header: 'SHARED', name: 'shared', csv: (p) => String(p.shared), table: (p) => (p.shared ? 'yes' : ''), priority: 2 },
    {
      header: 'PRICE',
      name: 'price',
      csv: () => undefined,
      table: (p) => {
        const d = p.price_details;
        if (!d) return p.product_group === 'taxi' ? 'metered' : 'upfront';
        return `${formatMoney(d.base, d.currency_code)} + ${formatMoney(d.cost_per_minute, d.currency_code)}/min + ${formatMoney(d.cost_per_distance, d.currency_code)}/${d.distance_unit} (min ${formatMoney(d.minimum, d.currency_code)})`;
      },
      tableOnly: true,
      kind: 'words',
      priority: 5,
    },
    { header: 'CURRENCY', name: 'currency_code', csv: (p) => p.price_details?.currency_code, csvOnly: true },
    { header: 'BASE', name: 'base', csv: (p) => p.price_details?.base.toString(), csvOnly: true },
    { header: 'MINIMUM', name: 'minimum', csv: (p) => p.price_details?.minimum.toString(), csvOnly: true },
    { header: 'PER MINUTE', name: 'cost_per_minute', csv: (p) => p.price_details?.cost_per_minute.toString(), csvOnly: true },
    { header: 'PER DISTANCE', name: 'cost_per_distance', csv: (p) => p.price_details?.cost_per_distance.toString(), csvOnly: true },
    { header: 'DISTANCE UNIT', name: 'distance_unit', csv: (p) => p.price_details?.distance_unit, csvOnly: true },
    { header: 'DESCRIPTION', name: 'description', csv: (p) => p.description, kind: 'words', priority: 1 },
  ],
};

const money = (e: PriceEstimate, value: number | null) => (value === null || !e.currency_code ? undefined : formatMoney(value, e.currency_code, 0));

export const priceView: View<PriceEstimate> = {
  noun: 'price estimates',
  columns: [
    { header: 'PRODUCT', name: 'localized_display_name', csv: (e) => e.localized_display_name },
    { header: 'ESTIMATE', name: 'estimate', csv: (e) => e.estimate },
    {
      header: 'LOW',
      name: 'low_estimate',
      csv: (e) => e.low_estimate?.toString(),
      table: (e) => money(e, e.low_estimate),
      text: (e) => decimalMoney(e.low_estimate, e.currency_code),
      priority: 1,
    },
    {
      header: 'HIGH',
      name: 'high_estimate',
      csv: (e) => e.high_estimate?.toString(),
      table: (e) => money(e, e.high_estimate),
      text: (e) => decimalMoney(e.high_estimate, e.currency_code),
      priority: 1,
    },
    { header: 'CURRENCY', name: 'currency_code', csv: (e) => e.currency_code ?? undefined, csvOnly: true },
    { header: 'SURGE', name: 'surge_multiplier', csv: (e) => String(e.surge_multiplier), table: (e) => surge(e.surge_multiplier) },
    { header: 'DURATION', name: 'duration', csv: (e) => String(e.duration), table: (e) => minutes(e.duration), priority: 3 },
    { header: 'DISTANCE', name: 'distance', csv: (e) => String(e.distance), table: (e) => `${e.distance} mi`, priority: 2 },
    // `rider request --product` takes the name too: the id is the first to go after the trip's figures.
    { header: 'PRODUCT ID', name: 'product_id', csv: (e) => e.product_id, kind: 'id', priority: 4 },
  ],
};

export const timeView: View<TimeEstimate> = {
  noun: 'products with drivers near',
  columns: [
    { header: 'PRODUCT', name: 'localized_display_name', csv: (t) => t.localized_display_name },
    { header: 'ETA', name: 'estimate', csv: (t) => String(t.estimate), table: (t) => minutes(t.estimate) },
    { header: 'PRODUCT ID', name: 'product_id', csv: (t) => t.product_id, kind: 'id' },
  ],
};

export const profileView: View<UserProfile> = {
  noun: 'profiles',
  columns: [
    { header: 'RIDER ID', name: 'rider_id', csv: (u) => u.rider_id, kind: 'id' },
    { header: 'NAME', name: 'name', csv: (u) => [u.first_name, u.last_name].filter(Boolean).join(' ') || undefined, kind: 'text' },
    { header: 'EMAIL', name: 'email', csv: (u) => u.email, priority: 3 },
    {
      header: 'MOBILE',
      name: 'mobile_number',
      csv: (u) => u.mobile_number,
      table: (u) => (u.mobile_number ? `${u.mobile_number}${u.mobile_verified ? '' : ' (unverified)'}` : undefined),
      priority: 1,
    },
    { header: 'PROMO CODE', name: 'promo_code', csv: (u) => u.promo_code, kind: 'id', priority: 2 },
  ],
};

export const rideView: View<RideRequest> = {
  noun: 'ride requests',
  columns: [
    { header: 'REQUEST ID', name: 'request_id', csv: (r) => r.request_id, kind: 'id' },
    { header: 'STATUS', name: 'status', csv: (r) => r.status },
    { header: 'ETA', name: 'eta', csv: (r) => r.eta?.toString(), table: (r) => (r.eta === null ? undefined : `${r.eta} min`) },
    { header: 'SURGE', name: 'surge_multiplier', csv: (r) => r.surge_multiplier?.toString(), table: (r) => surge(r.surge_multiplier) },
    { header: 'DRIVER', name: 'driver', csv: (r) => r.driver?.name, kind: 'text', priority: 3 },
    {
      header: 'VEHICLE',
      name: 'vehicle',
      csv: (r) => (r.vehicle ? `${r.vehicle.make} ${r.vehicle.model} ${r.vehicle.license_plate}` : undefined),
      kind: 'text',
      priority: 2,
    },
    { header: 'PRODUCT ID', name: 'product_id', csv: (r) => r.product_id, kind: 'id', priority: 1 },
  ],
};

export const placeView: View<Place> = {
  noun: 'places',
  columns: [{ header: 'ADDRESS', name: 'address', csv: (p) => p.address, kind: 'words' }],
};

export const rideMapView: View<RideMap> = {
  noun: 'ride maps',
  columns: [
    { header: 'REQUEST ID', name: 'request_id', csv: (m) => m.request_id, kind: 'id' },
    // A link is opened, not read: whole, even past the terminal's edge.
    { header: 'MAP', name: 'href', csv: (m) => m.href, kind: 'id' },
  ],
};

/** POST /requests/estimate: the fare (or only the minimum without a destination), the trip and the pickup. */
export const requestEstimateView: View<RequestEstimate> = {
  noun: 'ride estimates',
  columns: [
    { header: 'FARE', name: 'display', csv: (e) => e.price.display, table: (e) => e.price.display ?? `minimum ${e.price.minimum}` },
    { header: 'LOW', name: 'low_estimate', csv: (e) => e.price.low_estimate?.toString(), csvOnly: true },
    { header: 'HIGH', name: 'high_estimate', csv: (e) => e.price.high_estimate?.toString(), csvOnly: true },
    { header: 'CURRENCY', name: 'currency_code', csv: (e) => e.price.currency_code ?? undefined, csvOnly: true },
    { header: 'SURGE', name: 'surge_multiplier', csv: (e) => String(e.price.surge_multiplier), table: (e) => surge(e.price.surge_multiplier) },
    {
      header: 'DISTANCE',
      name: 'distance_estimate',
      csv: (e) => e.trip?.distance_estimate.toString(),
      table: (e) => (e.trip ? `${e.trip.distance_estimate} ${e.trip.distance_unit === 'km' ? 'km' : 'mi'}` : undefined),
      priority: 1,
    },
    {
      header: 'DURATION',
      name: 'duration_estimate',
      csv: (e) => e.trip?.duration_estimate.toString(),
      table: (e) => minutes(e.trip?.duration_estimate),
      priority: 2,
    },
    {
      header: 'PICKUP',
      name: 'pickup_estimate',
      csv: (e) => e.pickup_estimate?.toString(),
      table: (e) => (e.pickup_estimate === null ? 'no driver near' : `${e.pickup_estimate} min`),
    },
    { header: 'FARE ID', name: 'fare_id', csv: (e) => e.price.fare_id, kind: 'id' },
  ],
};

export const historyView: View<HistoryItem> = {
  noun: 'trips',
  columns: [
    { header: 'REQUEST ID', name: 'request_id', csv: (h) => h.request_id, kind: 'id' },
    { header: 'STATUS', name: 'status', csv: (h) => h.status },
    // A city's name is short: on one line, left out before a trip takes two.
    { header: 'CITY', name: 'city', csv: (h) => h.start_city.display_name, priority: 3 },
    { header: 'DISTANCE', name: 'distance', csv: (h) => String(h.distance), table: (h) => `${h.distance} mi`, priority: 2 },
    { header: 'REQUESTED', name: 'request_time', csv: (h) => time(h.request_time), table: (h) => minute(h.request_time), priority: 4 },
    { header: 'ENDED', name: 'end_time', csv: (h) => time(h.end_time), table: (h) => minute(h.end_time), priority: 1 },
  ],
};

export const receiptView: View<Receipt> = {
  noun: 'receipts',
  columns: [
    { header: 'REQUEST ID', name: 'request_id', csv: (r) => r.request_id, kind: 'id' },
    {
      header: 'TOTAL',
      name: 'total_charged',
      csv: (r) => String(r.total_charged),
      table: (r) => formatMoney(r.total_charged, r.currency_code),
      text: (r) => decimalMoney(r.total_charged, r.currency_code),
    },
    { header: 'CURRENCY', name: 'currency_code', csv: (r) => r.currency_code, csvOnly: true },
    {
      header: 'CHARGES',
      name: 'charges',
      csv: (r) => r.charges.map((c) => `${c.name}=${c.amount}`).join('|'),
      table: (r) => r.charges.map((c) => `${c.name} ${formatMoney(c.amount, r.currency_code)}`).join(', '),
      kind: 'words',
      // A charge's name and amount stay together ("Booking fee $2.55"): lines break between charges.
      separator: ', ',
    },
    {
      header: 'SURGE',
      name: 'surge_charge',
      csv: (r) => r.surge_charge?.amount.toString(),
      table: (r) => (r.surge_charge ? `${r.surge_charge.name} ${formatMoney(r.surge_charge.amount, r.currency_code)}` : ''),
      kind: 'words',
      separator: ', ',
    },
    { header: 'DURATION', name: 'duration', csv: (r) => String(r.duration), table: (r) => minutes(r.duration), priority: 2 },
    {
      header: 'DISTANCE',
      name: 'distance',
      csv: (r) => String(r.distance),
      table: (r) => `${r.distance} ${distanceUnit(r.distance_label)}`,
      priority: 1,
    },
  ],
};

export const quoteView: View<DeliveryQuote> = {
  noun: 'delivery quotes',
  columns: [
    { header: 'QUOTE ID', name: 'id', csv: (q) => q.id, kind: 'id' },
    {
      header: 'FEE',
      name: 'fee',
      csv: (q) => minorToDecimal(q.fee),
      table: (q) => formatMoney(minorToDecimal(q.fee), q.currency.toUpperCase()),
      text: (q) => `${minorToDecimal(q.fee)} ${q.currency.toUpperCase()}`,
    },
    { header: 'CURRENCY', name: 'currency', csv: (q) => q.currency.toUpperCase(), priority: 1 },
    { header: 'DROPOFF ETA', name: 'dropoff_eta', csv: (q) => q.dropoff_eta, priority: 3 },
    { header: 'EXPIRES', name: 'expires', csv: (q) => q.expires, priority: 2 },
  ],
};
