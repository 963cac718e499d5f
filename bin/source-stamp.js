// The stamp of the sources dist/ was built from (issue 31 §1): `npm run build` writes it beside
// the JavaScript (dist/source-stamp.json), and in the repository bin/pbx-conformance.js runs the
// compiled dist/ instead of the TypeScript sources through tsx only while the stamp still matches
// the sources, so a development tree never runs a stale build. The stamp covers every file the
// build reads or copies (each one's path, size and modification time) and the build's settings.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Folders whose files the build compiles or copies into dist/. */
const SOURCE_DIRS = ['src', 'simulators', 'steps', 'features', 'schemas', 'python'];
/** Files that shape the build. */
const BUILD_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build-package.mjs'];

export const STAMP_FILE = 'source-stamp.json';

/** The stamp of the sources under `root` as they are now. */
export function sourceStamp(root) {
  const hash = createHash('sha256');
  const note = (path) => {
    const stat = statSync(join(root, path), { throwIfNoEntry: false });
    hash.update(stat ? `${path}\t${stat.size}\t${stat.mtimeMs}\n` : `${path}\tabsent\n`);
  };
  for (const file of BUILD_FILES) note(file);
  for (const dir of SOURCE_DIRS) for (const path of walk(root, dir)) note(path);
  return hash.digest('hex');
}

/** Whether `root/dist` holds a build of the sources under `root` as they are now. */
export function compiledIsCurrent(root) {
  if (!existsSync(join(root, 'dist', 'src', 'cli', 'main.js'))) return false;
  try {
    const stamp = JSON.parse(readFileSync(join(root, 'dist', STAMP_FILE), 'utf8'));
    return stamp.sources === sourceStamp(root);
  } catch {
    return false;
  }
}

function* walk(root, dir) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name === '__pycache__' || entry.name.startsWith('.')) continue;
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* walk(root, path);
    else yield path;
  }
}
