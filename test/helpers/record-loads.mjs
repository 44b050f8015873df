// Preload for `node --import`: records every module the process loads, one per line, in
// the file $RECORD_LOADS_FILE. ESM loads (the bundle's chunks, node: builtins) are seen by
// a loader hook on Node's hooks thread; CommonJS `require` calls (the bundle's
// createRequire banner) by wrapping Module.prototype.require here.
import fs from 'node:fs';
import Module, { register } from 'node:module';

const file = process.env.RECORD_LOADS_FILE;
if (file) {
  register('./record-loads-hooks.mjs', import.meta.url, { data: { file } });
  const require = Module.prototype.require;
  Module.prototype.require = function recorded(id) {
    fs.appendFileSync(file, `require:${id}\n`);
    return require.apply(this, arguments);
  };
}
