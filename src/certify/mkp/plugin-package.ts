import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';

/** The part of an MKP that holds agent-based plug-ins (API v2): `~/local/lib/python3/cmk_addons/plugins`. */
export const PLUGINS_PART = 'cmk_addons_plugins';

/** Bounds for a vendor's package, so a broken or hostile archive cannot exhaust the harness. */
const MAX_PACKAGE_BYTES = 64 * 1024 * 1024;
const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;
const MAX_ENTRIES = 20_000;

/** What `info.json` says, as far as certification reads it. */
export interface MkpManifest {
  name: string;
  version: string;
  title?: string;
  files: Record<string, string[]>;
}

/** A package ready for the runner: its plug-ins folder (`<family>/agent_based/*.py`). */
export interface PluginPackage {
  kind: 'mkp' | 'dir';
  /** What the user named (for the reports). */
  source: string;
  pluginsDir: string;
  manifest: MkpManifest | null;
  /** Files of the plug-ins part, relative to `pluginsDir`. */
  files: string[];
  /**
   * An MKP's members with their SHA-256 (hex): `info`, `info.json`, each part's archive, and each
   * file inside a part as `<part>/<path>`. What a certificate names as its subjects (docs/certificate.md).
   */
  members?: { name: string; sha256: string }[];
  close(): Promise<void>;
}

/** The package check's outcome: the package, or the problems that make it invalid (MKP-PLUGIN-PACKAGE-VALID). */
export type PackageCheck = { ok: true; package: PluginPackage } | { ok: false; problems: string[] };

interface TarFile {
  name: string;
  type: string;
  data: Buffer;
}

async function readTar(archive: Buffer, budget: { bytes: number; entries: number }): Promise<TarFile[]> {
  const files: TarFile[] = [];
  const reader = extract();
  for await (const entry of Readable.from([archive]).pipe(reader)) {
    budget.entries -= 1;
    budget.bytes -= entry.header.size ?? 0;
    if (budget.entries < 0 || budget.bytes < 0) {
      entry.resume();
      throw new Error('the archive unpacks to more than the harness accepts');
    }
    const data = await buffer(entry);
    files.push({ name: entry.header.name, type: entry.header.type ?? 'file', data });
  }
  return files;
}

/** A member path that stays inside its part: relative, no `..`, no empty or `.` segments. */
function safePath(name: string): boolean {
  if (name.startsWith('/') || name.includes('\\') || name.includes('\0')) return false;
  const segments = name.split('/');
  return segments.every((s) => s !== '' && s !== '.' && s !== '..');
}

function parseManifest(text: string, problems: string[]): MkpManifest | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    problems.push('info.json is not JSON');
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push('info.json is not a JSON object');
    return null;
  }
  const manifest = value as Record<string, unknown>;
  const name = manifest['name'];
  const version = manifest['version'];
  const files = manifest['files'];
  if (typeof name !== 'string' || !/^[A-Za-z_][-A-Za-z0-9_.]*$/.test(name))
    problems.push(`info.json: "name" is not a package name: ${JSON.stringify(name)}`);
  if (typeof version !== 'string' || version === '')
    problems.push(`info.json: "version" is missing or not a string`);
  if (typeof files !== 'object' || files === null || Array.isArray(files)) {
    problems.push('info.json: "files" is not an object of part → file list');
    return null;
  }
  const parts: Record<string, string[]> = {};
  for (const [part, list] of Object.entries(files as Record<string, unknown>)) {
    if (!Array.isArray(list) || !list.every((f) => typeof f === 'string')) {
      problems.push(`info.json: files of part "${part}" are not a list of paths`);
      continue;
    }
    parts[part] = list as string[];
  }
  if (problems.length > 0) return null;
  const title = manifest['title'];
  return {
    name: name as string,
    version: version as string,
    ...(typeof title === 'string' ? { title } : {}),
    files: parts,
  };
}

/**
 * Checks an MKP the way Checkmk's package tool reads one (Checkmk 2.x: a gzip-compressed tar with
 * `info`, `info.json` and one `<part>.tar` per part the manifest names) and unpacks its
 * `cmk_addons_plugins` part into a temporary folder for the runner. Every problem is collected
 * (MKP-PLUGIN-PACKAGE-VALID), so the report lists them all, not only the first.
 */
export async function openMkp(path: string, source: string): Promise<PackageCheck> {
  const size = statSync(path).size;
  if (size > MAX_PACKAGE_BYTES)
    return { ok: false, problems: [`the package is ${size} bytes, more than the harness accepts`] };
  const problems: string[] = [];
  let outer: TarFile[];
  const budget = { bytes: MAX_UNPACKED_BYTES, entries: MAX_ENTRIES };
  try {
    outer = await readTar(gunzipSync(await readFile(path), { maxOutputLength: MAX_UNPACKED_BYTES }), budget);
  } catch (error) {
    return {
      ok: false,
      problems: [
        `not a gzip-compressed tar archive: ${error instanceof Error ? error.message : String(error)}`,
      ],
    };
  }
  const members = new Map(
    outer.filter((m) => m.type === 'file').map((m) => [m.name.replace(/^\.\//, ''), m]),
  );
  for (const m of outer) if (m.type !== 'file') problems.push(`member ${m.name} is a ${m.type}, not a file`);
  if (!members.has('info')) problems.push('no member "info" (the manifest as a Python literal)');
  const infoJson = members.get('info.json');
  if (!infoJson) problems.push('no member "info.json" (the manifest as JSON)');
  const manifest = infoJson ? parseManifest(infoJson.data.toString('utf8'), problems) : null;
  const unpacked = new Map<string, TarFile[]>();
  if (manifest) {
    for (const [part, listed] of Object.entries(manifest.files)) {
      if (listed.length === 0) continue;
      const member = members.get(`${part}.tar`);
      if (!member) {
        problems.push(`info.json lists files of part "${part}", but there is no member ${part}.tar`);
        continue;
      }
      let inner: TarFile[];
      try {
        inner = await readTar(member.data, budget);
      } catch (error) {
        problems.push(
          `${part}.tar is not a tar archive: ${error instanceof Error ? error.message : String(error)}`,
        );
        continue;
      }
      const files = inner.filter((f) => f.type === 'file');
      for (const f of inner) {
        if (f.type !== 'file' && f.type !== 'directory')
          problems.push(`${part}.tar: ${f.name} is a ${f.type}, not a regular file`);
      }
      const names = new Set(files.map((f) => f.name.replace(/^\.\//, '')));
      for (const name of names) if (!safePath(name)) problems.push(`${part}.tar: unsafe path ${name}`);
      const missing = listed.filter((f) => !names.has(f));
      const unlisted = [...names].filter((f) => !listed.includes(f));
      if (missing.length > 0)
        problems.push(`${part}.tar lacks files info.json lists: ${missing.slice(0, 10).join(', ')}`);
      if (unlisted.length > 0)
        problems.push(`${part}.tar holds files info.json does not list: ${unlisted.slice(0, 10).join(', ')}`);
      unpacked.set(part, files);
    }
    for (const name of members.keys()) {
      if (name === 'info' || name === 'info.json') continue;
      const part = name.endsWith('.tar') ? name.slice(0, -4) : null;
      if (part === null || !(part in manifest.files))
        problems.push(`member ${name} is not a part info.json names`);
    }
    if (!(manifest.files[PLUGINS_PART]?.length ?? 0))
      problems.push(
        `info.json lists no files in part "${PLUGINS_PART}": no agent-based plug-ins (Check API v2, Checkmk 2.3 and later) to certify`,
      );
  }
  if (problems.length > 0 || !manifest) return { ok: false, problems };
  const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex');
  const memberDigests = [
    ...[...members].map(([name, m]) => ({ name, sha256: digest(m.data) })),
    ...[...unpacked].flatMap(([part, files]) =>
      files.map((f) => ({ name: `${part}/${f.name.replace(/^\.\//, '')}`, sha256: digest(f.data) })),
    ),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const root = await mkdtemp(join(tmpdir(), 'pbx-mkp-'));
  const pluginsDir = join(root, PLUGINS_PART);
  const files: string[] = [];
  try {
    for (const file of unpacked.get(PLUGINS_PART) ?? []) {
      const name = file.name.replace(/^\.\//, '');
      const target = join(pluginsDir, ...name.split('/'));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.data);
      files.push(name);
    }
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    ok: true,
    package: {
      kind: 'mkp',
      source,
      pluginsDir,
      manifest,
      files: files.sort(),
      members: memberDigests,
      close: () => rm(root, { recursive: true, force: true }),
    },
  };
}

/**
 * `--plugin-dir DIR` for a package not yet built: DIR is the `cmk_addons_plugins` folder (its
 * subfolders are plug-in families with `agent_based/`) or a folder holding one. `null`: neither.
 */
export function pluginDirectory(dir: string, source: string): PluginPackage | null {
  const candidates = [join(dir, PLUGINS_PART), dir];
  for (const candidate of candidates) {
    if (!existsSync(candidate) || !statSync(candidate).isDirectory()) continue;
    if (existsSync(join(candidate, 'agent_based'))) continue;
    return { kind: 'dir', source, pluginsDir: candidate, manifest: null, files: [], close: async () => {} };
  }
  return null;
}

/** Whether `dir` is a single plug-in family (it has `agent_based/` itself): the user meant its parent. */
export function isFamilyFolder(dir: string): boolean {
  return existsSync(join(dir, 'agent_based'));
}
