// `platform webhooks verify [FILE|-] (--signature HEX | --headers FILE)`: exit 0 valid,
// 1 invalid (saying why), 2 unusable input. Light on purpose: no zod, undici or conf here.
import type { Context } from '../../context.js';
import { CommandError, UsageError } from '../../base/errors.js';
import { parseHeaderBlock } from '../../webhooks/headers.js';
import { ENVIRONMENT_HEADER, parseSignature, SIGNATURE_HEADER } from '../../webhooks/signature.js';
import { signatureVerdict, verdictLine } from '../../webhooks/verdict.js';
import { readEventFields } from '../../webhooks/events.js';
import { checkFreshness } from '../../webhooks/freshness.js';
import { parseDuration } from '../../auth/duration.js';
import { readBodyArgument, readBytes } from '../input.js';
import { otherSecrets, webhookSecret } from './secret.js';
import { wantsJson, writeRecord } from '../../output/records.js';
import type { WebhooksVerifyFlags } from './spec.js';

type VerifyFlags = WebhooksVerifyFlags;

const USAGE = 'Usage: platform webhooks verify [FILE|-] (--signature HEX | --headers FILE)';

export async function run(ctx: Context, flags: VerifyFlags, args: string[]): Promise<void> {
  const toleranceMs = parseDuration(flags.tolerance, '--tolerance');
  const { value, source, environment } = await signatureInput(ctx, flags);
  const parsed = parseSignature(value);
  if (!parsed.ok) throw new UsageError(`the signature (${source}) ${parsed.problem}`);
  if (flags.headers && args[0] === '-' && flags.headers === '-') throw new UsageError('the body and --headers cannot both come from stdin', USAGE);
  const body = await readBodyArgument(ctx, args[0], USAGE);
  const secret = await webhookSecret(ctx);
  let verdict = signatureVerdict(parsed.signature, body, secret, { strict: flags.strict });
  if (!verdict.valid && !verdict.verification.diagnosis) {
    // Only now is the profile worth reading: another secret may explain the mismatch.
    verdict = signatureVerdict(parsed.signature, body, secret, { strict: flags.strict, alternatives: await otherSecrets(ctx, secret) });
  }
  const { verification } = verdict;
  // Only a valid body's age matters: an invalid one is refused anyway.
  const stale = verification.valid ? checkFreshness(readEventFields(body)?.event_time, ctx.clock.now(), toleranceMs, flags.tolerance) : undefined;
  if (stale) ctx.info(`warning: ${stale.warning}`);
  if (wantsJson(ctx)) {
    const report = {
      valid: verification.valid,
      algorithm: 'HMAC-SHA256',
      body_bytes: verification.bodyBytes,
      computed_signature: verification.computed,
      signature: parsed.signature.bytes.toString('hex'),
      signature_source: source,
      environment: environment ?? null,
      secret_source: secret.name,
      notes: verification.notes,
      diagnosis: verification.diagnosis ?? null,
      event_time_warning: stale?.warning ?? null,
    };
    writeRecord(ctx, report, () => '');
    if (!verdict.valid) throw new CommandError(verdictLine(verdict));
    return;
  }
  for (const note of verification.notes) ctx.info(`note: ${note}`);
  if (!verdict.valid) throw new CommandError(verdictLine(verdict));
  writeRecord(ctx, {}, () => verdictLine(verdict, environment ? `X-Environment: ${environment}` : undefined));
}

async function signatureInput(ctx: Context, flags: VerifyFlags): Promise<{ value: string; source: string; environment?: string }> {
  if (flags.signature !== undefined && flags.headers !== undefined) throw new UsageError('give --signature or --headers, not both', USAGE);
  if (flags.signature !== undefined) return { value: flags.signature, source: '--signature' };
  if (flags.headers === undefined)
    throw new UsageError(`give the ${SIGNATURE_HEADER} value with --signature HEX, or a header block with --headers FILE`, USAGE);
  const block = parseHeaderBlock((await readBytes(ctx, flags.headers, '--headers')).toString('utf8'));
  const values = block.get(SIGNATURE_HEADER);
  if (values.length === 0) {
    const names = block.headers.length
      ? `it has ${block.headers
          .map(([n]) => n)
          .slice(0, 8)
          .join(', ')}`
      : 'no "Name: value" line was found in it';
    throw new UsageError(`--headers ${flags.headers}: no ${SIGNATURE_HEADER} header (${names})`);
  }
  if (new Set(values).size > 1)
    throw new UsageError(`--headers ${flags.headers}: ${values.length} different ${SIGNATURE_HEADER} headers; keep the one of this delivery`);
  const environment = block.get(ENVIRONMENT_HEADER)[0]?.trim();
  return { value: values[0]!, source: `${SIGNATURE_HEADER} in ${flags.headers}`, environment };
}
