// Matching a redirect URI against a client's registered ones. Exact match, except that a
// loopback URI matches whatever its port and loopback host name (RFC 8252 7.3, 8.3): a
// native app listens on a port the OS picks at the time of each sign-in.

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

export function redirectUriAllowed(registered: readonly string[], given: string): boolean {
  const url = parse(given);
  // A fragment is never allowed (RFC 6749 3.1.2), nor credentials in the URI.
  if (!url || url.hash || given.includes('#') || url.username || url.password) return false;
  for (const candidate of registered) {
    if (candidate === given) return true;
    const reg = parse(candidate);
    if (reg && isLoopback(reg) && isLoopback(url) && reg.pathname === url.pathname && reg.search === url.search) return true;
  }
  return false;
}
