// Survivors that need no test, each with why: matched by file and description (curated ones by
// id), so a moved line keeps its explanation and a changed one loses it. The report prints the
// reason beside the survivor; a survivor without one wants a test.
export const EXPLAINED = [
  {
    id: 'runner-stopped-ignores-journal-failure',
    why: 'equivalent: Journal.sent rejects at once after a failure, so the batch the runner no longer stops gets the same "journal could not be written" result and nothing is sent',
  },
  {
    file: 'src/bulk/changes/current.ts',
    description: 'drop ! in !this.#seen.get(id)',
    why: 'not killed yet: it breaks only the read-ahead bound (the reader stops pausing, memory grows), not a result; a test must count the reads ahead of the merge',
  },
  {
    file: 'src/bulk/input/json-items.ts',
    description: '< -> <= in at < 0',
    why: 'equivalent: tooDeepAt never returns 0 (nesting past the limit cannot be at the first character)',
  },
  {
    file: 'src/bulk/input/json-items.ts',
    description: 'slice argument 1: 0 + 1',
    why: 'equivalent: the document is trimmed, so its first character is never a newline and the line number is the same',
  },
  {
    file: 'src/bulk/changes/merge.ts',
    description: 'false -> true in () => false',
    why: "equivalent: the default of mergeWithCurrent's resend is never used (its one caller, pipeline.ts, always passes it)",
  },
  {
    file: 'src/bulk/pipeline.ts',
    description: 'slice argument 1: 0 + 1',
    why: "not worth a test: a default journal name's random suffix has 7 characters instead of 8 (still unique with the time; nothing parses it)",
  },
  {
    file: 'src/base/process-alive.ts',
    description: "slice argument 1: stat.lastIndexOf(')') + 2 + 1",
    why: "equivalent: it skips the one-character state field, leaving a leading space, so split(' ') puts an empty field first and index 19 is the same start time",
  },
  {
    file: 'src/bulk/row-identity.ts',
    description: 'slice argument 1: 0 + 1',
    why: 'equivalent: content hashes of 15 characters instead of 16, only ever compared with hashes made by the same code',
  },
];
