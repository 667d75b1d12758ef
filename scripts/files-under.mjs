// The file walk shared by scripts/build.mjs and scripts/build-dashboard.mjs.
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Every file under `dir` (none when it does not exist), skipping node_modules and the directories in `skip` (full paths). */
export async function* filesUnder(dir, skip = []) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.name === 'node_modules' || skip.includes(full)) continue;
    if (entry.isDirectory()) yield* filesUnder(full, skip);
    else yield full;
  }
}
