// The contract gate, per test file (vitest setupFiles): after the file's tests, every ads
// exchange its CLI runs recorded is validated against the OpenAPI; any violation fails the
// file, naming the operation, the test and the JSON path. A summary goes to the directory
// global.ts made, which adds up the whole run.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { OpenApiContract } from './openapi.js';
import { recorded } from './recorder.js';

afterAll(() => {
  if (recorded.length === 0) return;
  const contract = new OpenApiContract();
  const violations: string[] = [];
  const covered = new Set<string>();
  let validated = 0;
  for (const exchange of recorded) {
    const op = contract.operationOf(exchange.method, new URL(exchange.url, 'http://api').pathname);
    if (!op) continue;
    validated++;
    covered.add(op.id);
    violations.push(...contract.violations(exchange));
  }
  const dir = process.env.CONTRACT_SUMMARY_DIR;
  if (dir)
    fs.writeFileSync(
      path.join(dir, `${process.pid}-${Date.now()}-${Math.random().toString(16).slice(2)}.json`),
      JSON.stringify({ validated, covered: [...covered], violations: violations.length }),
    );
  recorded.length = 0;
  expect(violations, `exchanges that violate the OpenAPI (${violations.length})`).toEqual([]);
});
