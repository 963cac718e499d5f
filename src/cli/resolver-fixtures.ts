import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSelfSignedTls, type SelfSignedTls as TlsPair } from '../../simulators/shared/index.ts';

/** The `resolver` section of a target file (schemas/target.schema.json, `$defs/resolver`). */
export interface ResolverTargetFixture {
  endpointHost: string;
  trustedCertificate?: { certFile: string; keyFile: string };
  trustedCertificateOtherHost?: { certFile: string; keyFile: string };
}

/** What `simulate --json` adds for the resolver scenarios of `verify --target`. */
export interface ResolverFixtures {
  section: ResolverTargetFixture;
  /** The certificates the simulated PBX's runtime trusts (`PbxStartOptions.resolver.trustedCa`). */
  trustedCa: string[];
  /** Why there are no certificates (no `openssl` on this machine), if so. */
  warning?: string;
  /** Removes the key and certificate files. */
  close(): Promise<void>;
}

/** A name no certificate of the endpoint's address carries (RESOLVER-TLS-NO-HOSTNAME). */
const OTHER_HOST = 'another-host.invalid';

/**
 * The resolver fixtures of a simulator target: the harness's reference endpoints listen on
 * `endpointHost`, which the simulated PBX reaches only when both run on this machine, so only a
 * loopback or wildcard bind address gets a section (elsewhere the harness's address from the
 * PBX's side is unknown and the resolver scenarios stay not verifiable). Two fresh self-signed
 * pairs, one naming `endpointHost` and one naming another host, go into the PBX runtime's trust
 * store and, as files in a private temporary directory, into the target file
 * (RESOLVER-TLS-TRUST-STORE, RESOLVER-TLS-NO-HOSTNAME).
 */
export async function prepareResolverFixtures(bindHost: string): Promise<ResolverFixtures | null> {
  const endpointHost = harnessHost(bindHost);
  if (endpointHost === null) return null;
  let pairs: TlsPair[];
  try {
    pairs = await Promise.all([
      createSelfSignedTls({ hosts: [endpointHost, 'localhost'] }),
      createSelfSignedTls({ hosts: [OTHER_HOST] }),
    ]);
  } catch (error) {
    return {
      section: { endpointHost },
      trustedCa: [],
      warning: `${(error as Error).message}: the resolver's trusted-certificate scenarios stay not verifiable`,
      close: async () => {},
    };
  }
  const [matching, otherHost] = pairs as [TlsPair, TlsPair];
  await removeStaleFixtureDirs();
  const dir = await mkdtemp(join(tmpdir(), FIXTURE_DIR_PREFIX));
  await writeFile(join(dir, OWNER_FILE), `${process.pid}\n`, { mode: 0o600 });
  const write = async (name: string, pair: TlsPair) => {
    const place = { certFile: join(dir, `${name}.cert.pem`), keyFile: join(dir, `${name}.key.pem`) };
    await writeFile(place.certFile, pair.cert, { mode: 0o600 });
    await writeFile(place.keyFile, pair.key, { mode: 0o600 });
    return place;
  };
  return {
    section: {
      endpointHost,
      trustedCertificate: await write('trusted', matching),
      trustedCertificateOtherHost: await write('trusted-other-host', otherHost),
    },
    trustedCa: [matching.cert, otherHost.cert],
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The address the harness's endpoints use when it shares this machine with the simulator. */
export function harnessHost(bindHost: string): string | null {
  if (bindHost === '0.0.0.0' || bindHost === '::' || bindHost === '[::]' || bindHost === 'localhost')
    return '127.0.0.1';
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bindHost) ? bindHost : null;
}

/** The temporary folders holding the fixtures' key files. */
export const FIXTURE_DIR_PREFIX = 'pbx-conformance-resolver-';
/** The process id of the simulator that made a fixture folder. */
const OWNER_FILE = 'owner.pid';
/** A folder without an owner file younger than this may be one another start is making now. */
const UNOWNED_GRACE_MS = 60_000;

/**
 * Removes the fixture folders of simulators that are gone (issue 20, item 20). The key files must
 * lie on disk for as long as the simulator runs, since `verify --target` in another process reads
 * them; `close()` removes them, but a SIGKILL leaves them behind, so each start removes the folders
 * whose owning process no longer runs (and folders without an owner file older than a minute).
 * Returns the folders removed.
 */
export async function removeStaleFixtureDirs(root = tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  const entries = await readdir(root).catch(() => [] as string[]);
  for (const name of entries) {
    if (!name.startsWith(FIXTURE_DIR_PREFIX)) continue;
    const dir = join(root, name);
    const owner = Number((await readFile(join(dir, OWNER_FILE), 'utf8').catch(() => '')).trim());
    const stale =
      owner > 0
        ? !isRunning(owner)
        : Date.now() - ((await stat(dir).catch(() => null))?.mtimeMs ?? Date.now()) > UNOWNED_GRACE_MS;
    if (!stale) continue;
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    removed.push(dir);
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
