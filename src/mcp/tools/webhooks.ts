// The webhooks toolset: verify a delivery's signature. The secret is named, never given or
// returned: PLATFORM_WEBHOOK_SECRET, or the profile's client secret.
import * as z from 'zod';
import { UsageError } from '../../base/errors.js';
import { clientSecretOf, sourceText } from '../../config/resolve.js';
import { parseSignature } from '../../webhooks/signature.js';
import { signatureVerdict, verdictLine } from '../../webhooks/verdict.js';
import { addTool, type ToolHost } from '../tool.js';

export function addWebhooksTools(host: ToolHost): void {
  const { ctx } = host;
  addTool(host, {
    name: 'webhooks_verify',
    description: "Check a delivery's X-Platform-Signature against its body, with a named secret (never the secret itself).",
    input: {
      body: z.string().describe('the raw body, exactly as received'),
      signature: z.string().describe('the X-Platform-Signature value'),
      secret: z.enum(['PLATFORM_WEBHOOK_SECRET', 'profile']).optional().describe('which secret (default: the env, else the profile)'),
    },
    output: { valid: z.boolean(), secret_source: z.string(), reason: z.string() },
    run: async (input) => {
      const parsed = parseSignature(input.signature);
      if (!parsed.ok) throw new UsageError(`signature: ${parsed.problem}`);
      let secret: { name: string; value: string } | undefined;
      if (input.secret !== 'profile' && ctx.env.PLATFORM_WEBHOOK_SECRET) secret = { name: 'PLATFORM_WEBHOOK_SECRET', value: ctx.env.PLATFORM_WEBHOOK_SECRET };
      if (!secret && input.secret !== 'PLATFORM_WEBHOOK_SECRET') {
        const [store, { name }] = await Promise.all([ctx.config(), ctx.profile()]);
        const found = clientSecretOf(ctx.env, store.getProfile(name), name);
        if (found) secret = { name: sourceText(found.source), value: found.value };
      }
      if (!secret) throw new UsageError('secret: no webhook secret: set PLATFORM_WEBHOOK_SECRET, or use a profile that has a client secret');
      const verdict = signatureVerdict(parsed.signature, Buffer.from(input.body, 'utf8'), secret);
      const reason = verdictLine(verdict);
      return { result: { valid: verdict.valid, secret_source: secret.name, reason }, summary: reason };
    },
  });
}
