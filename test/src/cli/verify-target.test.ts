import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { verifyCommand } from '../../../src/cli/verify-command.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';
import { tempDir } from '../../certify/support.ts';
import { sampleTarget } from '../runner/loopback-ports.ts';
import { captureIo } from './capture-io.ts';

/*
 * The PLUGIN scenarios (features/certify/) prove certify-plugin itself. Under `verify --target`
 * they are not verifiable with the reason, and they open no connection to the target: not to
 * its data endpoint, its web server, nor its control plane (no reset before them).
 *
 * The counting servers listen on a loopback address of their own: other test files probe ports
 * on 127.0.0.1 they have just closed, and the kernel may hand those very ports to these servers.
 */

const OWN_ADDRESS = '127.0.91.7';

async function countingServer(): Promise<{
  port: number;
  connections: () => number;
  close: () => Promise<void>;
}> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, OWN_ADDRESS, resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test('verify --target: the PLUGIN scenarios are not verifiable, with the reason, and never touch the target', async (t) => {
  const dir = await tempDir(t);
  const servers = {
    web: await countingServer(),
    monitoring: await countingServer(),
    control: await countingServer(),
  };
  t.after(() => Promise.all(Object.values(servers).map((s) => s.close())));
  await writeFile(
    join(dir, 'target.json'),
    JSON.stringify(
      onOwnAddress(
        sampleTarget({
          web: servers.web.port,
          monitoring: servers.monitoring.port,
          control: servers.control.port,
        }),
      ),
    ),
  );
  const io = captureIo(dir);
  const code = await verifyCommand(
    {
      target: 'target.json',
      tags: '@PLUGIN-EXIT-CODE or @PLUGIN-OWN-TIMEOUT',
      reports: 'out',
      quiet: true,
      // The preflight's own connections are not the scenarios': it is told every endpoint answers.
      probe: async () => ({ reachable: true }),
      credentials: async () => [],
    },
    io,
  );
  assert.equal(code, 0, io.out() + io.err());
  assert.match(io.out(), /^\s+PLUGIN\s+not run\s+0\s+2\s+21\s/m, io.out());
  const report = JSON.parse(
    await readFile(join(dir, 'out', 'compatibility.json'), 'utf8'),
  ) as CompatibilityReport;
  const plugin = report.interfaces.find((i) => i.id === 'PLUGIN');
  for (const id of ['PLUGIN-EXIT-CODE', 'PLUGIN-OWN-TIMEOUT']) {
    const clause = plugin?.clauses.find((c) => c.id === id);
    assert.equal(clause?.verdict, 'not-verifiable', id);
    assert.match(clause?.reason ?? '', /judge a check plug-in under certify-plugin, not the target/);
    assert.ok((clause?.scenarios.length ?? 0) >= 2, `${id}: its keep and break scenarios are listed`);
  }
  assert.deepEqual(Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, s.connections()])), {
    web: 0,
    monitoring: 0,
    control: 0,
  });
});

/** The sample target with its three endpoints moved from 127.0.0.1 to `OWN_ADDRESS`. */
function onOwnAddress(target: Record<string, unknown>): Record<string, unknown> {
  const pbx = target.pbx as { webUrl: string; controlUrl?: string; monitoring: { host: string } };
  pbx.webUrl = pbx.webUrl.replace('127.0.0.1', OWN_ADDRESS);
  if (pbx.controlUrl) pbx.controlUrl = pbx.controlUrl.replace('127.0.0.1', OWN_ADDRESS);
  pbx.monitoring.host = OWN_ADDRESS;
  return target;
}
