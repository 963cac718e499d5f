import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PbxHandle, type PbxStartOptions, start } from '../../simulators/pbx/index.ts';
import { captureTcp } from '../../src/record/capture-tcp.ts';
import { recordCommand } from '../../src/record/record-command.ts';

/**
 * A loopback address of this test's own (127.x.y.z, not 127.0.0.x), checked by binding it, so
 * concurrent test runs do not meet and the target's address is one a recording must not hold.
 */
export async function ownLoopback(): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const octet = (min: number) => min + Math.floor(Math.random() * (255 - min));
    const host = `127.${octet(1)}.${octet(0)}.${octet(1)}`;
    const ok = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(0, host, () => server.close(() => resolve(true)));
    });
    if (ok) return host;
  }
  throw new Error('no free loopback address');
}

export interface TestPbx {
  handle: PbxHandle;
  host: string;
  target: Record<string, unknown> & { name: string; pbx: Record<string, unknown> };
}

/**
 * A simulated PBX on its own loopback address with a frozen clock, listing only that address
 * (the recorder connects from it), and a target file for it; `maintenanceToken` adds a token.
 */
export async function startTestPbx(
  options: Omit<PbxStartOptions, 'host' | 'monitoringPort' | 'clock'> & { maintenanceToken?: boolean } = {},
): Promise<TestPbx> {
  const host = await ownLoopback();
  const { maintenanceToken, ...startOptions } = options;
  const handle = await start({ ...startOptions, host, monitoringPort: 0, clock: { mode: 'frozen' } });
  await handle.control.setMonitoringHosts([{ entry: `${host}/32`, active: true }]);
  const status = await handle.control.endpointStatus();
  const target: TestPbx['target'] = {
    name: 'lab-pbx-nordhafen',
    pbx: {
      webUrl: handle.urls.web,
      monitoring: { host, port: status.port },
      xmlrpc: {
        path: '/xml-rpc',
        instanceName: 'Monitoring',
        authParam: 'de.vendor.pbx.auth',
        login: '123',
        password: 'Pass123',
      },
      listedClientAddress: host,
    },
  };
  if (maintenanceToken) {
    const created = await handle.control.createToken({ label: 'record', actor: 'admin' });
    target['maintenance'] = { token: created.secret };
  }
  return { handle, host, target };
}

/** A temporary folder, removed by the returned function. */
export async function tempFolder(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-record-test-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export async function writeJson(path: string, value: unknown): Promise<string> {
  await writeFile(path, JSON.stringify(value));
  return path;
}

/**
 * A time series recorded from a simulated PBX (`startTestPbx`, scenario `healthy`) as
 * `record --repeat N --every 1m` takes it: one sample per entry of `phones`, a minute apart on the
 * PBX's virtual clock, sample i with `phones[i]` online phones. Written to `dir/series.json`; the
 * PBX is closed before it resolves.
 */
export async function recordPhoneSeries(
  dir: string,
  phones: readonly number[],
): Promise<Awaited<ReturnType<typeof recordCommand>>> {
  const original = await startTestPbx({ scenario: 'healthy' });
  try {
    let step = 0;
    await original.handle.control.patchState({ sip: { onlinePhones: phones[0] } });
    return await recordCommand(
      {
        target: await writeJson(join(dir, 'target.json'), original.target),
        out: join(dir, 'series.json'),
        repeat: phones.length,
        every: 60_000,
        sleep: async (ms) => {
          step += 1;
          await original.handle.control.advanceClock({ ms });
          await original.handle.control.patchState({ sip: { onlinePhones: phones[step] } });
          await original.handle.control.invalidateSnapshot();
        },
      },
      dir,
    );
  } finally {
    await original.handle.close();
  }
}

/** What a PBX's data endpoint serves now, as a monitoring client gets it (raw mode). */
export async function servedText(handle: PbxHandle): Promise<string> {
  const url = new URL(handle.urls.monitoring!.replace('tcp:', 'http:'));
  return (await captureTcp({ host: url.hostname, port: Number(url.port) })).bytes.toString('utf8');
}
