// Command lines the CLI prints for the user to run again (resume a run, wait for a report).

/** Arguments quoted for a POSIX shell, only where needed. */
export function quoteArgs(args: readonly string[]): string {
  return args.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** The same command line with --resume JOURNAL (and without a --journal or --resume it had), quoted, in backticks. */
export function resumeCommand(argv: readonly string[], journal: string | undefined): string {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--resume' || argv[i] === '--journal') i++;
    else if (!argv[i]!.startsWith('--resume=') && !argv[i]!.startsWith('--journal=')) args.push(argv[i]!);
  }
  return `\`platform ${quoteArgs([...args, ...(journal ? ['--resume', journal] : [])])}\``;
}
