// Preload for `node --import`: writes the process's peak resident memory (in KiB) to
// $RECORD_RSS_FILE when it exits, so a test can say how much memory a CLI run took without a
// system tool (test/process/state-files.test.ts).
//
// On Linux this is VmHWM from /proc/self/status, the peak of this program's own address space.
// getrusage's maxRSS is not: Linux carries it across fork and exec, so a child spawned by a
// test worker already holding 700 MB reports at least 700 MB whatever it does itself. Elsewhere
// maxRSS is all there is.
import fs from 'node:fs';

export function peakRssKiB() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // no procfs: fall through
  }
  return process.resourceUsage().maxRSS;
}

const file = process.env.RECORD_RSS_FILE;
if (file) process.on('exit', () => fs.writeFileSync(file, String(peakRssKiB())));
