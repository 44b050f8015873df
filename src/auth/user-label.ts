// How a signed-in user is named in messages and `auth status` (no zod: status stays light).
import type { ProfileUser } from '../config/profile.js';

export function describeUser(user: ProfileUser | undefined): string {
  if (!user) return '';
  if (user.name && user.email) return `${user.name} (${user.email})`;
  return user.name ?? user.email ?? `rider ${user.rider_id}`;
}
