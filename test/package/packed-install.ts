/**
 * `npm pack` of this repository and an install of the tarball into a fresh project folder, as a
 * user of the package does it. Shared by test/package/package.test.ts and bench/startup.bench.ts.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/core/project-paths.ts';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Packed {
  tarball: string;
  /** Bytes of the .tgz. */
  size: number;
  unpackedSize: number;
  /** Paths inside the package, as `npm pack --json` lists them. */
  files: string[];
}

export interface Installed {
  /** The user's project folder. */
  project: string;
  /** node_modules/<name> of the installed package. */
  packageDir: string;
  /** node_modules/.bin/pbx-conformance. */
  bin: string;
  installMs: number;
}

/** A child's environment: no coverage collection and nothing preloaded (tsx) from the parent. */
export function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['NODE_V8_COVERAGE'];
  delete env['NODE_OPTIONS'];
  return env;
}

export function runProcess(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...childEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * `npm pack` into `dir` (`prepack` builds dist/; its output goes to stderr, the JSON to stdout).
 * `typeCheck: false` builds without the type check (scripts/build-package.mjs: the same
 * JavaScript), for a caller whose tree `npm run typecheck` checks.
 */
export async function pack(dir: string, options: { typeCheck?: boolean } = {}): Promise<Packed> {
  await mkdir(dir, { recursive: true });
  const env = options.typeCheck === false ? { PBX_BUILD_NO_TYPECHECK: '1' } : {};
  const packed = await runProcess(NPM, ['pack', '--json', '--pack-destination', dir], PACKAGE_ROOT, env);
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr.trim()}`);
  const [description] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as {
    filename: string;
    size: number;
    unpackedSize: number;
    files: { path: string }[];
  }[];
  if (description === undefined) throw new Error('npm pack described no package');
  return {
    tarball: join(dir, description.filename),
    size: description.size,
    unpackedSize: description.unpackedSize,
    files: description.files.map((file) => file.path),
  };
}

/**
 * Installs `tarball` into a new project `dir` with dependencies from the npm cache where it has
 * them (`--prefer-offline`). Resolves with `{ failed }`, npm's last stderr line, when npm cannot install.
 */
export async function install(tarball: string, dir: string): Promise<Installed | { failed: string }> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'user-project', private: true }));
  const started = performance.now();
  const installed = await runProcess(
    NPM,
    ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball],
    dir,
  );
  const installMs = performance.now() - started;
  if (installed.code !== 0)
    return { failed: installed.stderr.trim().split('\n').at(-1) ?? `exit ${installed.code}` };
  return {
    project: dir,
    packageDir: join(dir, 'node_modules', 'pbx-conformance'),
    bin: join(dir, 'node_modules', '.bin', 'pbx-conformance'),
    installMs,
  };
}
