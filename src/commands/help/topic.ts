// A help topic: a reference page that is not a command (`platform help bulk`).

export interface HelpTopic {
  name: string;
  summary: string;
  /** The page, its lines as long as they come: runCli wraps it to the terminal's width. */
  text: () => string;
}

/** Two columns, the second after the widest first, as commander lists flags. */
export function table(rows: ReadonlyArray<readonly [string | number, string]>): string {
  const width = Math.max(...rows.map(([key]) => String(key).length));
  return rows.map(([key, text]) => `  ${String(key).padEnd(width)}  ${text}`).join('\n');
}
