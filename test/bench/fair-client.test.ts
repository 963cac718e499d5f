import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import {
  bareSitesServer,
  benchFleetFixture,
  FLEET_BENCH_AUTH,
  FLEET_BENCH_T0,
} from '../../bench/fleet.bench.ts';
import { sliceOrder } from '../../bench/load-worker.ts';
import {
  bareMaintenanceServer,
  MAINTENANCE_COMMAND_PATH,
  maintenanceCommand,
} from '../../bench/maintenance.bench.ts';
import { start as startFleet } from '../../simulators/fleet-controller/index.ts';
import { httpPbxControl, start as startPbx } from '../../simulators/pbx/index.ts';

/** The answer's head as sent, without the `Date` line (the only field that differs by the second). */
function rawHead(url: string, requestHead: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(requestHead));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.destroy();
      resolve(
        text
          .slice(0, end)
          .split('\r\n')
          .filter((line) => !/^date:/i.test(line))
          .join('\r\n'),
      );
    });
    socket.on('error', reject);
  });
}

test('the /sites bench row: the bare server answers the head the controller answers, 200 and 304', async () => {
  const fleet = await startFleet({ fixture: benchFleetFixture(20), clock: { start: FLEET_BENCH_T0 } });
  const url = `${fleet.urls.api}/api/v1/sites`;
  const bare = await bareSitesServer(url, FLEET_BENCH_AUTH);
  try {
    for (const conditional of [`if-none-match: ${bare.etag}\r\n`, '']) {
      const head = `GET /api/v1/sites HTTP/1.1\r\nhost: bench\r\nauthorization: ${FLEET_BENCH_AUTH}\r\n${conditional}\r\n`;
      assert.equal(await rawHead(bare.url, head), await rawHead(url, head));
    }
  } finally {
    bare.server.close();
    await fleet.close();
  }
});

test('the maintenance bench row: the bare server answers what the PBX answers to an accepted command', async () => {
  const sim = await startPbx({ clock: { mode: 'frozen' } });
  try {
    const { secret } = await httpPbxControl(sim.urls.control).createToken({ label: 'bench', actor: 'admin' });
    const faceUrl = `${sim.urls.web}${MAINTENANCE_COMMAND_PATH}`;
    const bare = await bareMaintenanceServer(faceUrl, secret);
    try {
      const { method, headers, body } = maintenanceCommand(secret);
      const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      const head = (path: string) =>
        `${method} ${path} HTTP/1.1\r\nhost: bench\r\n${lines.join('')}content-length: ${body.length}\r\n\r\n${body}`;
      assert.equal(new URL(bare.url).pathname, MAINTENANCE_COMMAND_PATH);
      assert.equal(
        await rawHead(bare.url, head(MAINTENANCE_COMMAND_PATH)),
        await rawHead(faceUrl, head(MAINTENANCE_COMMAND_PATH)),
      );
    } finally {
      bare.server.close();
    }
    while ((await sim.control.waitIdle()).pending > 0);
  } finally {
    await sim.close();
  }
});

test('a comparison turns the order of its two sides round every pair of slices', () => {
  assert.deepEqual(sliceOrder(1), [0, 1]);
  assert.deepEqual(sliceOrder(4), [0, 1, 1, 0, 0, 1, 1, 0]);
});
