import { SANDBOX_DEFAULT_URL, SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../schemas/sandbox.js';

/** How a profile gets tokens; `token`: one given with `auth login --with-token`, which nothing renews. */
export type Grant = 'client_credentials' | 'authorization_code' | 'token';

export interface StoredToken {
  access_token: string;
  token_type: string;
  /** Milliseconds since the epoch. */
  expires_at: number;
  scope: string;
  refresh_token?: string;
  grant: Grant;
}

/** The expires_at of a token given with `auth login --with-token`: unknown, so it is used until the server refuses it (the latest time a Date holds). */
export const UNKNOWN_EXPIRY = 8.64e15;

/** The secrets a profile may hold. */
export const SECRET_KINDS = ['client_secret', 'access_token', 'refresh_token'] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];
/** Where a profile's secrets are kept. */
export type SecretsPlace = 'keyring' | 'file';

export interface Profile {
  /** The ads and delivery APIs. */
  base_url?: string;
  /** The token and authorize endpoints (spec 4.2's {auth_url}); default base_url. */
  auth_url?: string;
  /** The rider API (spec 4.4); default base_url. */
  rider_url?: string;
  /**
   * Where report files are fetched from instead of the origin of the pre-signed report_url the
   * API returns (a download origin this machine reaches by another address); absent: that origin.
   */
  download_url?: string;
  client_id?: string;
  client_secret?: string;
  /** Scopes to ask for; absent means all the client may have. */
  scopes?: string[];
  token?: StoredToken;
  /** How this profile signs in; kept after logout so hints name the right `auth login`. */
  grant?: Grant;
  /** Who signed in with the browser (GET /v1.2/me); never a secret. */
  user?: ProfileUser;
  /** The ad account ads commands use without --account (`platform config set account`). */
  account?: string;
  /** A PEM file of CA certificates to trust besides Node's (a TLS-inspecting proxy); --ca-file and PLATFORM_CA_FILE win. */
  ca_file?: string;
  /** Where the secrets are: the OS keyring (this file holds none of them) or this file; absent: this file (profiles from before the keyring). */
  secrets?: SecretsPlace;
  /** The secrets the keyring holds for this profile: names only. */
  keyring_secrets?: SecretKind[];
  /** auto | require | file: where `auth login` keeps secrets when neither --secure-storage nor PLATFORM_SECURE_STORAGE says. */
  secure_storage?: 'auto' | 'require' | 'file';
  /** true: accessible mode for this profile's commands (`platform help accessibility`); --accessible and PLATFORM_ACCESSIBLE win. */
  accessible?: 'true' | 'false';
  /** The separator of -o csv and --from-csv (`;`, `tab`, `|`, `,`); --delimiter and PLATFORM_CSV_DELIMITER win. */
  csv_delimiter?: string;
  /** true: -o csv and --from-csv write and read decimals as 1234,56; --decimal-comma and PLATFORM_CSV_DECIMAL_COMMA win. */
  csv_decimal_comma?: 'true' | 'false';
}

export interface ProfileUser {
  rider_id: string;
  name?: string;
  email?: string;
}

export const LOCAL_PROFILE = 'local';

/** The built-in profile: the sandbox on its default address with its public demo credentials. */
export const builtinProfiles: Readonly<Record<string, Profile>> = {
  [LOCAL_PROFILE]: {
    base_url: SANDBOX_DEFAULT_URL,
    client_id: SANDBOX_DEMO_CLIENT_ID,
    client_secret: SANDBOX_DEMO_CLIENT_SECRET,
  },
};
