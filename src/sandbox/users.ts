// Seeded users of the sandbox. It has no real sign-in: the consent page acts for the demo
// user, or for the one a `login_hint` names (handle, email or rider_id), so tests can pick
// a user in a given situation (no payment method, unverified mobile number).
import type { UserProfile } from '../schemas/user-profile.js';

export interface PaymentMethod {
  payment_method_id: string;
  type: string;
  description: string;
}

export interface SandboxUser extends Required<Omit<UserProfile, 'uuid'>> {
  /** Short name for `login_hint`. */
  handle: string;
  /** Empty: ride requests fail with missing_payment_method (spec 7.2). */
  payment_methods: PaymentMethod[];
  /** Not allowed to request rides: POST /v1.2/requests answers 403 forbidden (spec 7.2). */
  forbidden?: boolean;
}

export const DEMO_USER_HANDLE = 'demo';

const card = (id: string, description: string): PaymentMethod => ({ payment_method_id: id, type: 'card', description });

export const SANDBOX_USERS: readonly SandboxUser[] = [
  {
    handle: DEMO_USER_HANDLE,
    rider_id: 'rdr_8OlTlUG1TyeAQf1JiBZZdkKxuSSOUwu2',
    first_name: 'Dana',
    last_name: 'Demo',
    email: 'dana.demo@example.com',
    picture: 'https://sandbox.invalid/pictures/dana.png',
    promo_code: 'DANAD1',
    mobile_verified: true,
    mobile_number: '+14155550100',
    payment_methods: [card('pm_demo_visa', '***4242')],
  },
  {
    handle: 'no-payment',
    rider_id: 'rdr_kxuSSOUwu2IkO0Hf9d2HV52Pm25A0N',
    first_name: 'Noah',
    last_name: 'Nopay',
    email: 'noah.nopay@example.com',
    picture: 'https://sandbox.invalid/pictures/noah.png',
    promo_code: 'NOAHN1',
    mobile_verified: true,
    mobile_number: '+14155550101',
    payment_methods: [],
  },
  {
    handle: 'unverified',
    rider_id: 'rdr_vsbmbnZr85tLVi-s8CckpBK8Eq0Nke4X',
    first_name: 'Uma',
    last_name: 'Unverified',
    email: 'uma.unverified@example.com',
    picture: 'https://sandbox.invalid/pictures/uma.png',
    promo_code: 'UMAU1',
    mobile_verified: false,
    mobile_number: '+14155550102',
    payment_methods: [card('pm_uma_mc', '***5454')],
  },
  {
    handle: 'forbidden',
    rider_id: 'rdr_Fb1dd3nRq5tLVi8CckpBK8Eq0Nke4Y',
    first_name: 'Fran',
    last_name: 'Forbidden',
    email: 'fran.forbidden@example.com',
    picture: 'https://sandbox.invalid/pictures/fran.png',
    promo_code: 'FRANF1',
    mobile_verified: true,
    mobile_number: '+14155550103',
    payment_methods: [card('pm_fran_visa', '***1881')],
    forbidden: true,
  },
];

export function findUser(hint: string): SandboxUser | undefined {
  const wanted = hint.trim().toLowerCase();
  return SANDBOX_USERS.find((u) => u.handle === wanted || u.email.toLowerCase() === wanted || u.rider_id.toLowerCase() === wanted);
}

export function userById(riderId: string): SandboxUser | undefined {
  return SANDBOX_USERS.find((u) => u.rider_id === riderId);
}
