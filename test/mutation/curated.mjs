// Mutants chosen by hand: each names a mistake that once went (or could go) unnoticed. `find`
// must occur exactly once in the file; a mutant whose text is gone (the code was rewritten)
// is reported as not applicable rather than silently dropped.
export const CURATED = [
  {
    id: 'merge-drop-row-negation',
    file: 'src/bulk/changes/merge.ts',
    // The settings are the field table's (src/schemas/ads-fields.ts), merged in one line.
    find: '[key, given[key] ?? now[key]]',
    replace: "[key, key === 'negation' ? now[key] : (given[key] ?? now[key])]",
    description: "applyPartial drops the row's targeting negation (keeps the current one)",
  },
  {
    id: 'merge-drop-row-operator',
    file: 'src/bulk/changes/merge.ts',
    find: '[key, given[key] ?? now[key]]',
    replace: "[key, key === 'operator' ? now[key] : (given[key] ?? now[key])]",
    description: "applyPartial drops the row's targeting operator (keeps the current one)",
  },
  {
    id: 'runner-sent-not-awaited',
    file: 'src/bulk/runner.ts',
    find: 'await options.journal?.sent({',
    replace: 'void options.journal?.sent({',
    description: "the runner sends a batch without waiting for the journal's sent record",
  },
  {
    // The same without an unhandled rejection to give it away: a failed record is ignored.
    id: 'runner-sent-not-awaited-quiet',
    file: 'src/bulk/runner.ts',
    edits: [
      { find: 'await options.journal?.sent({', replace: 'void Promise.resolve(options.journal?.sent({' },
      {
        find: '...(campaignId ? { campaignId } : {}),\n      });\n    } catch',
        replace: '...(campaignId ? { campaignId } : {}),\n      })).catch(() => undefined);\n    } catch',
      },
    ],
    description: "the runner sends a batch without waiting for the journal's sent record, ignoring its failure",
  },
  {
    id: 'journal-sent-no-fsync-wait',
    file: 'src/bulk/journal/journal.ts',
    find: "this.#write({ type: 'sent', ...record });\n      await this.#flush();",
    replace: "this.#write({ type: 'sent', ...record });\n      void this.#flush().catch(() => undefined);",
    description: 'Journal.sent resolves before its record is fsynced',
  },
  {
    id: 'journal-done-not-written',
    file: 'src/bulk/journal/journal.ts',
    find: "this.#write({ type: 'done', ...record });",
    replace: '',
    description: 'Journal.done writes no record (every batch looks in flight on resume)',
  },
  {
    id: 'merge-resend-judged-unchanged',
    file: 'src/bulk/changes/merge.ts',
    find: 'if (!resend(row.key) && isUnchanged(',
    replace: 'if (isUnchanged(',
    description: 'a batch resent with its key may be judged unchanged (its request would differ)',
  },
  {
    id: 'runner-stopped-ignores-journal-failure',
    file: 'src/bulk/runner.ts',
    find: 'refused !== undefined || unjournaled() !== undefined',
    replace: 'refused !== undefined',
    description: 'the runner keeps sending after the journal could not be written',
  },
  {
    id: 'signature-strict-ignored',
    file: 'src/webhooks/signature.ts',
    find: 'if (options.strict && signature.quirks.length)',
    replace: 'if (false)',
    description: 'verify --strict accepts a signature with quirks',
  },
  {
    id: 'hmac-length-check-dropped',
    file: 'src/webhooks/hmac.ts',
    find: 'computed.length === expected.length && ',
    replace: '',
    description: 'matches() compares without checking lengths first (timingSafeEqual throws)',
  },
];
