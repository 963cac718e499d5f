import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { request } from 'undici';
import { start } from '../../../../simulators/pbx/index.ts';
import { monitoringPackage } from '../../../../simulators/pbx/mkp/monitoring-package.ts';
import { createPackageDownloadHandler } from '../../../../simulators/pbx/mkp/package-download.ts';
import { partsOf } from '../../../../simulators/pbx/pbx-parts.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import type { ModuleState } from '../../../../simulators/pbx/state/types.ts';
import { closeServer } from '../../../../simulators/shared/http/listen.ts';

const MODULES = defaultState(0).modules;
const MONITORING_ID = MODULES.find((m) => m.name === 'Monitoring')!.id;
const OTHER_ID = MODULES.find((m) => m.name !== 'Monitoring')!.id;

async function withHandler(
  modules: () => readonly ModuleState[],
  body: (base: string) => Promise<void>,
  build?: Parameters<typeof createPackageDownloadHandler>[1],
): Promise<void> {
  const server: Server = createServer(createPackageDownloadHandler(modules, build));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await body(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await closeServer(server);
  }
}

async function fetch(url: string, method = 'GET') {
  const response = await request(url, { method: method as 'GET' });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, headers: response.headers, bytes };
}

test('GET of the package URL answers the package as an attachment download', async () => {
  await withHandler(
    () => MODULES,
    async (base) => {
      const answer = await fetch(`${base}/downloads/moduledata/${MONITORING_ID}/pbx_monitoring.mkp`);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], 'application/octet-stream');
      assert.equal(answer.headers['content-disposition'], 'attachment; filename="pbx_monitoring.mkp"');
      assert.equal(answer.headers['content-length'], String(answer.bytes.length));
      assert.deepEqual(answer.bytes, (await monitoringPackage()).bytes);
    },
  );
});

test('HEAD answers the same headers without a body; other methods get 405 with Allow', async () => {
  await withHandler(
    () => MODULES,
    async (base) => {
      const url = `${base}/downloads/moduledata/${MONITORING_ID}/pbx_monitoring.mkp`;
      const head = await fetch(url, 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.headers['content-length'], String((await monitoringPackage()).bytes.length));
      assert.equal(head.bytes.length, 0);
      const post = await fetch(url, 'POST');
      assert.equal(post.status, 405);
      assert.equal(post.headers.allow, 'GET, HEAD');
    },
  );
});

test('an unknown module id, another module, another file or a deeper path is 404 in plain text', async () => {
  await withHandler(
    () => MODULES,
    async (base) => {
      for (const path of [
        '/downloads/moduledata/00000000-0000-0000-0000-000000000000/pbx_monitoring.mkp',
        `/downloads/moduledata/${OTHER_ID}/pbx_monitoring.mkp`,
        `/downloads/moduledata/${MONITORING_ID}/other.mkp`,
        `/downloads/moduledata/${MONITORING_ID}/pbx_monitoring.mkp/x`,
        `/downloads/moduledata/${MONITORING_ID}`,
        '/downloads/moduledata',
        `/downloads/moduledata/%E0%A4%A/pbx_monitoring.mkp`,
      ]) {
        const answer = await fetch(`${base}${path}`);
        assert.equal(answer.status, 404, path);
        assert.match(String(answer.headers['content-type']), /^text\/plain/, path);
        assert.equal(answer.bytes.toString('utf8'), 'not found\n', path);
      }
    },
  );
});

test('the module id is read from the state at request time and may be percent-encoded; a query is ignored', async () => {
  let modules: ModuleState[] = MODULES;
  await withHandler(
    () => modules,
    async (base) => {
      const renamed = 'abc def';
      modules = MODULES.map((m) => (m.name === 'Monitoring' ? { ...m, id: renamed } : m));
      assert.equal(
        (await fetch(`${base}/downloads/moduledata/${MONITORING_ID}/pbx_monitoring.mkp`)).status,
        404,
      );
      const answer = await fetch(`${base}/downloads/moduledata/abc%20def/pbx_monitoring.mkp?x=1`);
      assert.equal(answer.status, 200);
      modules = MODULES.filter((m) => m.name !== 'Monitoring');
      assert.equal((await fetch(`${base}/downloads/moduledata/abc%20def/pbx_monitoring.mkp`)).status, 404);
    },
  );
});

test('a package that cannot be built answers 500 with the reason', async () => {
  await withHandler(
    () => MODULES,
    async (base) => {
      const answer = await fetch(`${base}/downloads/moduledata/${MONITORING_ID}/pbx_monitoring.mkp`);
      assert.equal(answer.status, 500);
      assert.match(answer.bytes.toString('utf8'), /^ERROR: .*sources missing/);
    },
    () => {
      throw new Error('sources missing');
    },
  );
});

test('the simulated PBX serves the package on its web server, without sign-in, tile off or not', async () => {
  const pbx = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
  try {
    const id = partsOf(pbx)
      .store.read()
      .modules.find((m) => m.name === 'Monitoring')!.id;
    const url = `${pbx.urls.web}/downloads/moduledata/${id}/pbx_monitoring.mkp`;
    const answer = await fetch(url);
    assert.equal(answer.status, 200);
    assert.deepEqual([...answer.bytes.subarray(0, 2)], [0x1f, 0x8b]);
    await pbx.control.patchState({ monitoring: { tileOn: false } });
    assert.equal((await fetch(url)).status, 200);
    assert.equal((await fetch(`${pbx.urls.web}/downloads/moduledata/${id}/nope.mkp`)).status, 404);
  } finally {
    await pbx.close();
  }
});
