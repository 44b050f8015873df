// A CA bundle to trust besides Node's own roots (--ca-file, PLATFORM_CA_FILE, a profile's
// ca_file): a corporate proxy that inspects TLS, or a private CA. Like NODE_EXTRA_CA_CERTS,
// it adds to the defaults; and because TLS options that name CAs replace the defaults, those
// defaults (Node's bundled roots and NODE_EXTRA_CA_CERTS) are named again here.
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs/promises';
import tls, { type SecureContext } from 'node:tls';
import { UsageError } from '../base/errors.js';
import type { Env } from '../base/io.js';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

const READ_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a folder',
};

/**
 * One TLS context trusting Node's roots plus every certificate of `file` (PEM, one or many);
 * `source` names where the path came from in messages (--ca-file, PLATFORM_CA_FILE, the
 * profile's ca_file: config/resolve.ts's sourceText). A file that cannot be read or holds no
 * certificate is a usage error: one line, nothing sent.
 */
export async function trustingCaFile(file: string, source: string, env: Env): Promise<SecureContext> {
  const where = `${source} ${file}`;
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(`${where}: cannot read it (${READ_PROBLEMS[code] ?? code})`);
  }
  const added = text.match(PEM_CERTIFICATE) ?? [];
  if (added.length === 0) throw new UsageError(`${where}: no PEM certificate in it (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----)`);
  added.forEach((pem, index) => {
    try {
      new X509Certificate(pem);
    } catch {
      throw new UsageError(`${where}: certificate ${index + 1} of ${added.length} is not a valid PEM certificate`);
    }
  });
  return tls.createSecureContext({ ca: [...tls.rootCertificates, ...(await nodeExtraCaCerts(env)), ...added] });
}

/** NODE_EXTRA_CA_CERTS's certificates (Node itself warns when that file is unreadable). */
async function nodeExtraCaCerts(env: Env): Promise<string[]> {
  if (!env.NODE_EXTRA_CA_CERTS) return [];
  try {
    return (await fs.readFile(env.NODE_EXTRA_CA_CERTS, 'utf8')).match(PEM_CERTIFICATE) ?? [];
  } catch {
    return [];
  }
}
