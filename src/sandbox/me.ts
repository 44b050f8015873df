// GET /v1.2/me (spec 4.4): the signed-in user's profile, fields by scope.
import type { UserProfile } from '../schemas/user-profile.js';
import { authenticateUser } from './auth.js';
import type { SandboxContext } from './context.js';
import { json } from './http.js';
import type { Router } from './router.js';
import type { SandboxUser } from './users.js';

export function registerMeRoutes(router: Router, ctx: SandboxContext): void {
  router.get('/v1.2/me', (req) => {
    ctx.stats.apiRequests++;
    const { token, user } = authenticateUser(ctx, req, ['profile', 'eats.pos_provisioning']);
    return json(200, profileFor(user, token.scopes));
  });
}

export function profileFor(user: SandboxUser, scopes: readonly string[]): UserProfile {
  if (!scopes.includes('profile')) return { rider_id: user.rider_id };
  const profile: UserProfile = {
    rider_id: user.rider_id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    picture: user.picture,
    promo_code: user.promo_code,
    mobile_verified: user.mobile_verified,
    uuid: '',
  };
  if (scopes.includes('profile.mobile_number')) profile.mobile_number = user.mobile_number;
  return profile;
}
