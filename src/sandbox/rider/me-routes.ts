// PATCH /v1.2/me: apply a promotion code (spec 4.4; body and answer are the sandbox's).
import { PatchMeBody } from '../../schemas/rider.js';
import type { SandboxContext } from '../context.js';
import { json } from '../http.js';
import type { Router } from '../router.js';
import { userCaller } from './auth.js';
import { jsonBody, parseOr422, validationFailed } from './errors.js';
import { PROMOTIONS, type RiderState } from './state.js';

export function registerMePatchRoute(router: Router, ctx: SandboxContext, state: RiderState): void {
  router.patch('/v1.2/me', (req) => {
    const { user } = userCaller(ctx, req, ['profile']);
    const { applied_promotion_codes: code } = parseOr422(PatchMeBody, jsonBody(req.body));
    const description = PROMOTIONS[code.trim().toUpperCase()];
    if (!description) throw validationFailed({ applied_promotion_codes: [`unknown promotion code ${code}`] });
    const applied = { promotion_code: code.trim().toUpperCase(), description };
    const list = state.promotions.get(user.rider_id) ?? [];
    if (!list.some((p) => p.promotion_code === applied.promotion_code)) list.push(applied);
    state.promotions.set(user.rider_id, list);
    return json(200, applied);
  });
}
