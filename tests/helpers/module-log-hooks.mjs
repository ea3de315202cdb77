// The module hooks module-log.mjs registers: they write down each resolved URL and change nothing.
import fs from 'node:fs';

let file = '';

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  fs.appendFileSync(file, result.url + '\n');
  return result;
}
