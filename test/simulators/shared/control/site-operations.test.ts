import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from 'undici';
import { controlClient, httpTransport } from '../../../../simulators/shared/control/control-client.ts';
import { SITE_OPERATIONS } from '../../../../simulators/shared/control/site-operations.ts';
import { startControlServer } from '../../../../simulators/shared/http/control-server.ts';
import { SiteControlPlane } from '../../../../simulators/shared/http/site-control-plane.ts';

const hello = [{ method: 'GET' as const, path: '/hello', handle: async () => ({ status: 200, body: 'hi' }) }];

test('a plane serving PBXs at /pbx/{siteId} lists them through the declared listSites, and only then', async (t) => {
  const plane = new SiteControlPlane();
  plane.add('site-a', hello);
  plane.add('site b', hello);
  const server = await startControlServer([], { host: '127.0.0.1', port: 0, sites: plane });
  t.after(() => server.close());
  const sites = controlClient(SITE_OPERATIONS, httpTransport(server.url));
  assert.deepEqual(await sites.listSites(), { count: 2, siteIds: ['site-a', 'site b'] });
  const inside = await request(`${SiteControlPlane.siteUrl(server.url, 'site b')}/hello`);
  assert.deepEqual([inside.statusCode, await inside.body.json()], [200, 'hi']);
  const slash = await request(`${server.url}/pbx/`);
  assert.deepEqual(((await slash.body.json()) as { count: number }).count, 2);
  const post = await request(`${server.url}/pbx`, { method: 'POST' });
  assert.deepEqual([post.statusCode, post.headers['allow']], [405, 'GET']);
  await post.body.dump();

  const alone = await startControlServer(hello, { host: '127.0.0.1', port: 0 });
  t.after(() => alone.close());
  const none = await request(`${alone.url}/pbx`);
  assert.equal(none.statusCode, 404, 'a plane without PBXs has no /pbx');
  await none.body.dump();
});
