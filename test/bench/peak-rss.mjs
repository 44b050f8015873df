// Loaded with `node --import` into a measured CLI process: at exit, writes the process's
// peak resident set size (kB; see record-rss.mjs for why not getrusage alone) to $PEAK_RSS_FILE.
import fs from 'node:fs';
import { peakRssKiB } from '../helpers/record-rss.mjs';

process.on('exit', () => {
  if (process.env.PEAK_RSS_FILE) fs.writeFileSync(process.env.PEAK_RSS_FILE, String(peakRssKiB()));
});
