// Loaded with `node --import` into a measured process: at exit, writes the CPU time it used
// (user + system, ms, from process.cpuUsage) to $CPU_USAGE_FILE. On a machine whose cores the
// client shares with the server, a client's CPU time says what its wall time cannot.
import fs from 'node:fs';

process.on('exit', () => {
  if (!process.env.CPU_USAGE_FILE) return;
  const { user, system } = process.cpuUsage();
  fs.writeFileSync(process.env.CPU_USAGE_FILE, String((user + system) / 1000));
});
