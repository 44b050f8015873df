// Preload for `node --import`: writes the process's peak resident memory (max RSS, in KiB, from
// getrusage) to $RECORD_RSS_FILE when it exits, so a test can say how much memory a CLI run took
// without a system tool (test/process/state-files.test.ts).
import fs from 'node:fs';

const file = process.env.RECORD_RSS_FILE;
if (file) process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
