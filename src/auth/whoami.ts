// Who a user token acts for: GET /v1.2/me (spec 4.4).
import type { HttpCore } from '../http/core.js';
import type { ProfileUser } from '../config/profile.js';
import { UserProfile } from '../schemas/user-profile.js';

/** Scopes with which GET /v1.2/me answers. */
export const ME_SCOPES = ['profile', 'eats.pos_provisioning'];

export async function fetchUser(http: HttpCore, signal?: AbortSignal): Promise<ProfileUser> {
  const response = await http.send({ method: 'GET', path: '/v1.2/me', signal });
  const me = UserProfile.parse(response.body);
  const name = [me.first_name, me.last_name].filter(Boolean).join(' ');
  return { rider_id: me.rider_id, ...(name ? { name } : {}), ...(me.email ? { email: me.email } : {}) };
}
