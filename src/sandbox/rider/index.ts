// The rider API v1.2 and delivery quotes of the sandbox: registerRiderRoutes() wires the
// routes to one RiderState and one trip clock, and hands back the handle index.ts exposes.
import type { SandboxContext } from '../context.js';
import type { Router } from '../router.js';
import { faultyRoutes } from '../faults.js';
import { persistingWrites } from '../persisting-routes.js';
import { restoreRider, snapshotRider, type RiderData } from './persistence.js';
import { registerCatalogRoutes } from './catalog-routes.js';
import { registerControlRoutes } from './control-routes.js';
import { registerDeliveryRoutes } from './delivery-routes.js';
import { registerEstimateRoutes } from './estimate-routes.js';
import { RideEvents, type RideStatusListener } from './events.js';
import { registerMePatchRoute } from './me-routes.js';
import { registerRequestRoutes } from './request-routes.js';
import { registerPlaceRoutes } from './places.js';
import { registerMapPage } from './map-page.js';
import { RiderState } from './state.js';
import { Trips } from './trips.js';

export type { RideStatusChange, RideStatusListener } from './events.js';

export interface RiderSandbox {
  readonly state: RiderState;
  /** Simulated seconds per wall-clock second. */
  readonly timeScale: number;
  /** Called on every ride status change (see events.ts); returns the unsubscribe function. */
  onRideStatusChange(listener: RideStatusListener): () => void;
  /** Expires every outstanding fare and surge confirmation (to exercise fare_expired). */
  expireFares(): void;
  /** Replaces the whole rider state with saved data (snapshot restore, reset; undefined: none). */
  load(data: unknown): void;
  close(): void;
}

export function registerRiderRoutes(router: Router, ctx: SandboxContext, options: { timeScale?: number } = {}): RiderSandbox {
  const timeScale = options.timeScale && options.timeScale > 0 ? options.timeScale : 1;
  const state = new RiderState();
  const events = new RideEvents();
  const trips = new Trips(state, events, ctx.now, timeScale);
  if (ctx.store.rider) restoreRider(ctx.store.rider as RiderData, state, trips);
  ctx.store.riderSnapshot = () => snapshotRider(state, trips);
  // Every status change and every write (non-GET) changes what --state keeps.
  events.onRideStatusChange(() => ctx.persister.changed());
  const api = persistingWrites(faultyRoutes(router, ctx), ctx);
  registerCatalogRoutes(api, ctx, state);
  registerEstimateRoutes(api, ctx, state, trips);
  registerRequestRoutes(api, ctx, state, trips);
  registerMePatchRoute(api, ctx, state);
  registerPlaceRoutes(api, ctx, state);
  registerDeliveryRoutes(api, ctx);
  registerControlRoutes(persistingWrites(router, ctx), state, trips);
  registerMapPage(router, trips);
  return {
    state,
    timeScale,
    onRideStatusChange: (listener) => events.onRideStatusChange(listener),
    expireFares: () => state.expireAll(ctx.now()),
    load: (data) => {
      trips.clear();
      for (const map of [state.fares, state.confirmations, state.promotions, state.overrides, state.places]) map.clear();
      if (data) restoreRider(data as RiderData, state, trips);
    },
    close: () => trips.close(),
  };
}
