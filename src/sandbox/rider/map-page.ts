// Where the href of GET /v1.2/requests/{id}/map leads: a small page that says where the ride
// is (the real service links a live map). Sandbox-only, like the control routes: the
// unguessable request id is its only key, as a shared map link's is.
import { escapeHtml } from '../consent-page.js';
import type { Router } from '../router.js';
import { riderError } from './errors.js';
import type { Trips } from './trips.js';

export const RIDE_MAP_PATH = '/v1.2/sandbox/maps';

const at = (p: { latitude: number; longitude: number } | undefined) => (p ? `${p.latitude}, ${p.longitude}` : 'not set');

export function registerMapPage(router: Router, trips: Trips): void {
  router.get(`${RIDE_MAP_PATH}/{request_id}`, (req) => {
    const ride = trips.get(req.params.request_id!);
    if (!ride) throw riderError(404, 'not_found', `No ride request with id ${req.params.request_id}.`);
    const rows = [
      ['Ride', ride.request_id],
      ['Status', ride.status.replace(/_/g, ' ')],
      ['Pickup', at(ride.start)],
      ['Destination', at(ride.end)],
    ];
    const raw =
      '<!doctype html><meta charset="utf-8"><title>Ride map (sandbox)</title><h1>Ride map</h1><dl>' +
      rows.map(([name, value]) => `<dt>${escapeHtml(name!)}</dt><dd>${escapeHtml(value!)}</dd>`).join('') +
      '</dl>';
    return { status: 200, raw, headers: { 'content-type': 'text/html; charset=utf-8' } };
  });
}
