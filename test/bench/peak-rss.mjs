// Loaded with `node --import` into a measured CLI process: at exit, writes the process's
// peak resident set size (kB, from getrusage) to $PEAK_RSS_FILE.
import fs from 'node:fs';

process.on('exit', () => {
  if (process.env.PEAK_RSS_FILE) fs.writeFileSync(process.env.PEAK_RSS_FILE, String(process.resourceUsage().maxRSS));
});
