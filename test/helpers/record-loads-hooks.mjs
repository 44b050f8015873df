// Loader hooks of record-loads.mjs: appends each loaded module URL to the file.
import fs from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  fs.appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
