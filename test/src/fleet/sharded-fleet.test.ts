import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { request } from 'undici';
import { randomPool } from './random-pool.ts';

const SECRET = 'fleet-secret-for-the-shard-test-only';
/** Anna (Nordlicht) and Sam (Südwind): between them they see every site of the demo fleet. */
const ACCOUNTS = [
  'anna.admin@nordlicht.example:Nordlicht-Demo-1',
  'sam.admin@suedwind.example:Suedwind-Demo-1',
].map((pair) => `Basic ${Buffer.from(pair).toString('base64')}`);

/** Starts `simulate` in a child; resolves with its banner once it says it runs. */
function simulate(args: string[]): Promise<{ child: ChildProcess; banner: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'simulate', '--clock', 'frozen', ...args],
    {
      env: { ...process.env, PBX_CONFORMANCE_FLEET_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Press Ctrl-C')) resolve({ child, banner: out });
    });
    child.stderr!.on('data', (chunk) => {
      err += chunk;
    });
    child.once('exit', (code) =>
      reject(new Error(`simulate ${args.join(' ')} exited ${code}: ${err.trim()}`)),
    );
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

test('a controller alone and 3 shard processes form one fleet: the merged /sites shows every site once, none offline', async (t) => {
  const picked = await randomPool(12);
  if (!picked) return t.skip('no spare loopback block on this system');
  const children: ChildProcess[] = [];
  t.after(async () => {
    for (const child of children) await stop(child);
  });
  const controller = await simulate(['--fleet-only', '--pbx-count', '12']);
  children.push(controller.child);
  const api = /REST:\s+(\S+)\/api\/v1/.exec(controller.banner)?.[1];
  const ingest = /PBX ingest:\s+(tcp:\S+)/.exec(controller.banner)?.[1];
  assert.ok(api && ingest, controller.banner);
  const shards = await Promise.all(
    [1, 2, 3].map((i) =>
      simulate([
        '--shard',
        `${i}/3`,
        '--pbx-count',
        '12',
        '--controller',
        ingest,
        '--address-pool',
        picked.pool.spec,
        '--port',
        String(picked.port),
        '--web-port',
        String(picked.port2),
      ]),
    ),
  );
  children.push(...shards.map((s) => s.child));
  assert.match(shards[0]!.banner, /PBXs 1 to 4 of 12/);
  assert.match(shards[2]!.banner, /PBXs 9 to 12 of 12/);

  type Site = { id: string; attention: string[] };
  const merged = async () => {
    const lists = await Promise.all(
      ACCOUNTS.map(async (authorization) => {
        const answer = await request(`${api}/api/v1/sites`, { headers: { authorization } });
        return (await answer.body.json()) as Site[];
      }),
    );
    for (const list of lists)
      assert.equal(new Set(list.map((site) => site.id)).size, list.length, 'no site twice in a list');
    return new Map(lists.flat().map((site) => [site.id, site]));
  };
  let sites = await merged();
  for (let attempt = 0; attempt < 300; attempt++) {
    if (sites.size === 12 && [...sites.values()].every((site) => !site.attention.includes('offline'))) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
    sites = await merged();
  }
  assert.deepEqual(
    [...sites.keys()].sort(),
    [
      'site-bremen',
      'site-hamburg',
      'site-kiel',
      'site-muenchen',
      ...[5, 6, 7, 8, 9, 10, 11, 12].map((n) => `site-demo-${n}`),
    ].sort(),
    'every site of the fleet',
  );
  assert.deepEqual(
    [...sites.values()].filter((site) => site.attention.includes('offline')).map((site) => site.id),
    [],
    'every PBX of every shard is linked',
  );
  // Each shard's control plane reaches its own PBXs by site id.
  const shardControl = /control plane:\s+(\S+)/.exec(shards[1]!.banner)?.[1];
  const state = await request(`${shardControl}/pbx/site-demo-5/state`);
  assert.equal(state.statusCode, 200);
  await state.body.dump();
  const foreign = await request(`${shardControl}/pbx/site-hamburg/state`);
  assert.equal(foreign.statusCode, 404, "a shard serves only its own slice's PBXs");
  await foreign.body.dump();
});
