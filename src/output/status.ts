// The status line of a command that waits (a browser sign-in, a ride, a report job): an ora
// spinner on a terminal, one plain line per change otherwise (logs stay readable) and in
// accessible mode (a screen reader reads a line once; a spinner would be read again and again).
import type { IO, StatusLine } from '../base/io.js';

export async function startStatus(io: IO, text: string, { accessible = false, colour = true } = {}): Promise<StatusLine> {
  // A terminal that says it is 0 columns wide (a new pseudo-terminal, before its size is
  // set) would have the spinner clear lines without end: plain lines there too.
  if (accessible || !io.stderrIsTTY || (io.stderr as { columns?: number }).columns === 0) {
    // Accessible: the first line says work is under way, as the spinner would.
    io.stderr.write(`${accessible ? working(text) : text}\n`);
    let last = text;
    return {
      update(next) {
        if (next === last) return;
        last = next;
        io.stderr.write(`${next}\n`);
      },
      note: (line) => void io.stderr.write(`${line}\n`),
      stop() {},
    };
  }
  const { default: ora } = await import('ora');
  // NO_COLOR, --no-color and TERM=dumb take the spinner's colour too (it is drawn in cyan otherwise).
  const spinner = ora({ text, stream: io.stderr, isEnabled: true, discardStdin: false, color: colour ? 'cyan' : false }).start();
  return {
    update(next) {
      spinner.text = next;
    },
    note(line) {
      spinner.clear();
      io.stderr.write(`${line}\n`);
      spinner.render();
    },
    stop: () => void spinner.stop(),
  };
}

/** `Waiting for the report...` as is; `ride X is processing` -> `ride X is processing (working...)`. */
function working(text: string): string {
  return /(\.\.\.|…)$/.test(text) ? text : `${text} (working...)`;
}
