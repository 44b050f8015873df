// Constants of the local emulator ("sandbox") of the ads API and its token endpoint.

export const SANDBOX_DEFAULT_HOST = '127.0.0.1';
export const SANDBOX_DEFAULT_PORT = 4010;
export const SANDBOX_DEFAULT_URL = 'http://127.0.0.1:4010';
/** Moves the sandbox's default port, for `sandbox serve` and the profiles that point at it. */
export const SANDBOX_PORT_ENV = 'PLATFORM_SANDBOX_PORT';

/** The sandbox's default URL, on the port PLATFORM_SANDBOX_PORT names when set. */
export function sandboxDefaultUrl(env: Readonly<Record<string, string | undefined>>): string {
  const port = env[SANDBOX_PORT_ENV];
  return port && /^\d+$/.test(port) ? `http://${SANDBOX_DEFAULT_HOST}:${port}` : SANDBOX_DEFAULT_URL;
}
/** Public demo credential of the sandbox; it grants nothing outside it. */
export const SANDBOX_DEMO_CLIENT_ID = 'sandbox-demo-client';
export const SANDBOX_DEMO_CLIENT_SECRET = 'sandbox-demo-secret';
export const SANDBOX_DEFAULT_SEED = 1;
