// Tests that drive a system tool (Chromium, zsh, fish) run where the tool is installed. Where
// it is not, they are reported as skipped with the command that installs it; under
// PLATFORM_TEST_REQUIRE_TOOLS=1 (set by .ci/run, which installs them) a missing tool fails
// the run instead, so CI never skips them.
import fs from 'node:fs';
import path from 'node:path';

export interface SystemTool {
  /** Found on this machine. */
  present: boolean;
  /** What to put in the skipped test's title: the tool and how to install it. */
  skipNote: string;
}

function onPath(command: string): boolean {
  if (command.includes('/')) return fs.existsSync(command);
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, command)));
}

/** A system tool the next tests need; throws when it is absent and the run requires tools. */
export function systemTool(command: string, debianPackage = path.basename(command)): SystemTool {
  const present = onPath(command);
  const install = `apt-get install -y ${debianPackage}`;
  if (!present && process.env.PLATFORM_TEST_REQUIRE_TOOLS === '1')
    throw new Error(`${command} is required by this run (PLATFORM_TEST_REQUIRE_TOOLS=1) but not installed: ${install}`);
  return { present, skipNote: present ? '' : ` (skipped: ${command} not installed; ${install})` };
}
