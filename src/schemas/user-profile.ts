// The rider user profile of GET /v1.2/me (spec 2.8 user profile, 4.4).
import * as z from 'zod';

/** With the profile scope every field but mobile_number; with only eats.pos_provisioning, rider_id alone. */
export const UserProfile = z.object({
  rider_id: z.string(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  email: z.string().optional(),
  picture: z.string().optional(),
  promo_code: z.string().optional(),
  mobile_verified: z.boolean().optional(),
  /** Only with the profile.mobile_number scope. */
  mobile_number: z.string().optional(),
  /** Shown in the authorization-code walkthrough; always empty. */
  uuid: z.string().optional(),
});
export type UserProfile = z.infer<typeof UserProfile>;
