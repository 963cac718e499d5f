import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type ApacheDigestSite, apacheDigestConfig, htdigestLine } from './apache-digest-config.ts';

/** An Apache httpd found on this machine. */
export interface ApacheInstallation {
  bin: string;
  /** E.g. `2.4.71`. */
  version: string;
  moduleDir: string;
  /** The binary has an MPM compiled in (then none is loaded). */
  mpmCompiledIn: boolean;
}

/** A running httpd serving the temp site on 127.0.0.1. */
export interface ApacheServer {
  origin: string;
  port: number;
  /** The error log so far (authentication failures are logged there). */
  errorLog(): Promise<string>;
  /** Stops httpd and removes the temp dir; safe to call twice. */
  close(): Promise<void>;
}

const BINARIES = ['/usr/sbin/apache2', '/usr/sbin/httpd'];
const MODULE_DIRS = ['/usr/lib/apache2/modules', '/usr/lib64/httpd/modules', '/usr/lib/httpd/modules'];
const START_DEADLINE_MS = 10_000;
const STOP_GRACE_MS = 5_000;
const STDERR_LIMIT = 64 * 1024;

/**
 * The Apache httpd of this machine with `mod_auth_digest` (Debian's `apache2` package; the
 * Fedora layout is looked for too), or `null` when there is none.
 */
export function findApache(): ApacheInstallation | null {
  const bin = BINARIES.find((b) => existsSync(b));
  const moduleDir = MODULE_DIRS.find((d) => existsSync(join(d, 'mod_auth_digest.so')));
  if (!bin || !moduleDir) return null;
  const v = spawnSync(bin, ['-v'], { encoding: 'utf8', timeout: 10_000, env: childEnv() });
  const version = /Apache\/(\S+)/.exec(v.stdout ?? '')?.[1];
  if (v.status !== 0 || !version) return null;
  const l = spawnSync(bin, ['-l'], { encoding: 'utf8', timeout: 10_000, env: childEnv() });
  const mpmCompiledIn = /^\s*(event|prefork|worker)\.c$/m.test(l.stdout ?? '');
  return { bin, version, moduleDir, mpmCompiledIn };
}

function childEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' };
}

/** An unprivileged user and group for the workers when we run as root. */
function runAs(): { user: string; group: string } | null {
  if (process.getuid?.() !== 0) return null;
  const groups = readFileSync('/etc/group', 'utf8');
  const group = ['nogroup', 'nobody'].find((g) => new RegExp(`^${g}:`, 'm').test(groups)) ?? 'nogroup';
  return { user: 'nobody', group };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

interface SiteDir {
  root: string;
  conf: string;
  writeConf(port: number): Promise<void>;
}

/** The temp dir with site files and password file; readable by the unprivileged workers. */
async function makeSiteDir(
  apache: ApacheInstallation,
  site: ApacheDigestSite,
  files: Record<string, string>,
): Promise<SiteDir> {
  const root = await mkdtemp(join(tmpdir(), 'pbx-apache-'));
  await chmod(root, 0o755);
  const documentRoot = join(root, 'htdocs');
  await mkdir(documentRoot, { mode: 0o755 });
  for (const [name, body] of Object.entries(files)) {
    if (!/^[\w.-]+$/.test(name)) throw new RangeError(`unsafe site file name ${name}`);
    await writeFile(join(documentRoot, name), body, { mode: 0o644 });
  }
  const userFile = join(root, 'users.digest');
  await writeFile(userFile, htdigestLine(site), { mode: 0o644 });
  const conf = join(root, 'httpd.conf');
  return {
    root,
    conf,
    writeConf: (port) =>
      writeFile(
        conf,
        apacheDigestConfig(site, {
          root,
          documentRoot,
          userFile,
          moduleDir: apache.moduleDir,
          loadMpm: !apache.mpmCompiledIn,
          port,
          runAs: runAs(),
        }),
        { mode: 0o644 },
      ),
  };
}

/**
 * Whether this httpd accepts the site's configuration (`httpd -t`), e.g. an
 * `AuthDigestAlgorithm` it may not support; `message` is httpd's own complaint.
 */
export async function checkApacheConfig(
  apache: ApacheInstallation,
  site: ApacheDigestSite,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const dir = await makeSiteDir(apache, site, {});
  try {
    await dir.writeConf(await freePort());
    return await new Promise((resolve) => {
      execFile(
        apache.bin,
        ['-t', '-f', dir.conf],
        { env: childEnv(), timeout: 10_000, encoding: 'utf8' },
        (error, stdout, stderr) => {
          const text = `${stderr}${stdout}`.trim();
          resolve(error ? { ok: false, message: text.split('\n').slice(-1)[0] ?? text } : { ok: true });
        },
      );
    });
  } finally {
    await rm(dir.root, { recursive: true, force: true });
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/** Resolves true once 127.0.0.1:port accepts a connection, false when httpd exits or time runs out. */
async function waitForPort(port: number, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.setTimeout(500);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return true;
    await delay(50);
  }
  return false;
}

/**
 * Starts httpd in the foreground on a free loopback port with a temp site (`files` in the
 * document root, all of it behind Digest authentication for `site`), and waits until it accepts
 * connections. A port taken between probing and binding is retried with another one.
 */
export async function startApache(
  apache: ApacheInstallation,
  site: ApacheDigestSite,
  files: Record<string, string>,
): Promise<ApacheServer> {
  const dir = await makeSiteDir(apache, site, files);
  const errorLog = () => readFile(join(dir.root, 'error.log'), 'utf8').catch(() => '');
  let failure = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    failure = '';
    const port = await freePort();
    await dir.writeConf(port);
    const child = spawn(apache.bin, ['-f', dir.conf, '-DFOREGROUND'], {
      env: childEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_LIMIT) stderr += chunk.toString('utf8');
    });
    // httpd outlives a crashed test runner otherwise.
    const onExit = () => child.kill('SIGKILL');
    process.once('exit', onExit);
    const spawned = await new Promise<boolean>((resolve) => {
      child.once('spawn', () => resolve(true));
      child.once('error', (error) => {
        failure = error.message;
        resolve(false);
      });
    });
    if (spawned && (await waitForPort(port, child))) {
      let closed = false;
      return {
        origin: `http://127.0.0.1:${port}`,
        port,
        errorLog,
        close: async () => {
          if (closed) return;
          closed = true;
          await stop(child);
          process.removeListener('exit', onExit);
          await rm(dir.root, { recursive: true, force: true });
        },
      };
    }
    await stop(child);
    process.removeListener('exit', onExit);
    failure = `${failure}${stderr}${await errorLog()}`.trim();
    if (!/Address already in use/i.test(failure)) break;
  }
  await rm(dir.root, { recursive: true, force: true });
  throw new Error(`Apache httpd did not start: ${failure || 'no output'}`);
}
