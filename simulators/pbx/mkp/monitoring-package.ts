import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import { manifestInfo, manifestJson, type PackageManifest, packageManifest } from './package-manifest.ts';
import { packTar, type TarEntry } from './tar-archive.ts';

/**
 * Where the package's files live in this repository, one folder per package part: the folder
 * `cmk_addons_plugins/` becomes the member `cmk_addons_plugins.tar`, which Checkmk unpacks into
 * `~/local/lib/python3/cmk_addons/plugins/`.
 */
export const PACKAGE_SOURCE_DIR = fileURLToPath(new URL('./package/', import.meta.url));

/** The built package and its manifest. */
export interface MonitoringPackage {
  /** The `.mkp` file: a gzip-compressed tar. */
  bytes: Buffer;
  manifest: PackageManifest;
}

/**
 * Builds the monitoring package (MKP-DOWNLOAD; MKP-UNSPEC-PACKAGE: the content is the
 * simulator's choice) in Checkmk 2.x's format: a gzip-compressed tar holding `info`, `info.json`
 * and one uncompressed `<part>.tar` per part, in that order, as Checkmk's own package tool writes
 * it. The plug-ins parse the PBX sections with the grammar of docs/agent-text-grammar.md and
 * yield the services MKP-SERVICES-PBX and MKP-SERVICES-SECTIONS name.
 *
 * Only `.py` files are packed (`__pycache__` and other leftovers are not). Every member has
 * mtime 0 and mode 0644, so the same sources always give the same bytes.
 */
export async function buildMonitoringPackage(sourceDir = PACKAGE_SOURCE_DIR): Promise<MonitoringPackage> {
  const parts = readdirSync(sourceDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .map((d) => d.name)
    .sort();
  const files: Record<string, string[]> = {};
  const partTars: TarEntry[] = [];
  for (const part of parts) {
    const root = join(sourceDir, part);
    const paths = pythonFiles(root).map((path) => relative(root, path).split(sep).join('/'));
    if (paths.length === 0) continue;
    files[part] = paths;
    const inner = await packTar(paths.map((name) => ({ name, data: readFileSync(join(root, name)) })));
    partTars.push({ name: `${part}.tar`, data: inner });
  }
  const manifest = packageManifest(files);
  const outer = await packTar([
    { name: 'info', data: Buffer.from(manifestInfo(manifest), 'utf8') },
    { name: 'info.json', data: Buffer.from(manifestJson(manifest), 'utf8') },
    ...partTars,
  ]);
  return { bytes: gzipSync(outer, { level: constants.Z_BEST_COMPRESSION }), manifest };
}

function pythonFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === '__pycache__') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...pythonFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.py')) found.push(path);
  }
  return found.sort();
}

let cached: Promise<MonitoringPackage> | undefined;

/** The package, built on first use and kept for the life of the process. */
export function monitoringPackage(): Promise<MonitoringPackage> {
  cached ??= buildMonitoringPackage();
  return cached;
}
