import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { delimiter, isAbsolute, join, relative, resolve } from 'node:path';
import { interpretedScript } from '../certify/command-line.ts';
import type { Subject } from './statement.ts';

/** The lowercase hex SHA-256 of `bytes` (an in-toto DigestSet's `sha256`). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A subject for one file, named `name`. */
export async function fileSubject(path: string, name: string): Promise<Subject> {
  return { name, digest: { sha256: sha256Hex(await readFile(path)) } };
}

/**
 * The file a plug-in command certifies: the script when the command starts with an interpreter
 * (`python3 check.py …`: the interpreter is not the vendor's), else the executable, found as the
 * command is run (a name without `/` in PATH). `null` when it names no file.
 */
export function pluginFile(argv: string[], cwd: string, env: NodeJS.ProcessEnv): string | null {
  const [first] = argv;
  if (first === undefined) return null;
  const script = interpretedScript(argv);
  if (script !== null) return isFile(resolve(cwd, script)) ? resolve(cwd, script) : null;
  if (first.includes('/')) return isFile(resolve(cwd, first)) ? resolve(cwd, first) : null;
  const dirs = (env['PATH'] ?? '').split(delimiter).filter(Boolean);
  return dirs.map((dir) => join(isAbsolute(dir) ? dir : resolve(cwd, dir), first)).find(isFile) ?? null;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Every regular file under `dir` (sorted, `__pycache__` left out), each named by its path from
 * `dir`'s parent, e.g. `cmk_addons_plugins/pbx/agent_based/pbx.py`.
 */
export async function folderSubjects(dir: string): Promise<Subject[]> {
  const subjects: Subject[] = [];
  const base = resolve(dir, '..');
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== '__pycache__') await walk(path);
      else if (entry.isFile())
        subjects.push(await fileSubject(path, relative(base, path).split('\\').join('/')));
    }
  };
  await walk(dir);
  return subjects;
}
