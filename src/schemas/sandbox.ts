// Constants of the local emulator ("sandbox") of the ads API and its token endpoint.

export const SANDBOX_DEFAULT_HOST = '127.0.0.1';
export const SANDBOX_DEFAULT_PORT = 4010;
export const SANDBOX_DEFAULT_URL = 'http://127.0.0.1:4010';
/** Public demo credential of the sandbox; it grants nothing outside it. */
export const SANDBOX_DEMO_CLIENT_ID = 'sandbox-demo-client';
export const SANDBOX_DEMO_CLIENT_SECRET = 'sandbox-demo-secret';
export const SANDBOX_DEFAULT_SEED = 1;
