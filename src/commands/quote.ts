// Command lines the CLI prints for the user to run again (resume a run, wait for a report).

/** Arguments quoted for a POSIX shell, only where needed. */
export function quoteArgs(args: readonly string[]): string {
  return args.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}
