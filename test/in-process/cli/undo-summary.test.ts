// The summary of an undo whose rows changed since the run: those rows are `conflict`, told
// apart from failures (before: `5 rows: 3 ok, 2 failed, ...` for rows nothing went wrong with).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
let user: TestUser;
const dir = tempDir();

beforeAll(async () => {
  let account: string;
  ({ sandbox, account } = await sandboxWithUser({ campaigns: 8 }));
  user = new TestUser(sandbox, { PLATFORM_ACCOUNT: account });
});
afterAll(() => sandbox.close());

describe('the summary of an undo', () => {
  it('counts the rows changed since the run as conflict, not failed', async () => {
    const ids = (await user.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--all'])).map((c) => c.campaign_id).slice(0, 5);
    const csv = path.join(dir, 'rename.csv');
    fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},Renamed ${i}`).join('\n')}\n`);
    const patch = await user.run(['ads', 'campaigns', 'patch', '--from-csv', csv, '-o', 'ndjson']);
    expect(patch.code, patch.stderr).toBe(0);
    const run = path.basename(/Journal: (.*)\n/.exec(patch.stderr)![1]!, '.ndjson');
    // Two of them are renamed again since.
    for (const id of ids.slice(0, 2)) expect((await user.run(['ads', 'campaigns', 'patch', id, '--name', 'Edited since'])).code).toBe(0);

    const undo = await user.run(['ads', 'runs', 'undo', run, '-o', 'ndjson']);
    expect(undo.code).toBe(1);
    expect(undo.stderr).toMatch(/^5 rows: 3 ok, 2 conflict, 0 failed, 0 invalid, 0 skipped in \d+\.\d s/m);
    expect(undo.stderr).toContain('2 of 5 rows not sent: changed since');
    const results = undo.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { result: string }).result);
    expect(results.filter((r) => r === 'conflict')).toHaveLength(2);
  });
});
