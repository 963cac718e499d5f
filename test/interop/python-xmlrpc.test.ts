import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { startXmlRpcTestServer } from '../simulators/pbx/xmlrpc/xmlrpc-test-server.ts';

const SCRIPT = fileURLToPath(new URL('./xmlrpc_client.py', import.meta.url));
const VECTOR_123 =
  '123:81d8af78c98b153485f7d48e3437eb735ba37f0f013c5e06ba74536776c5945694e7cde71e2effbed7b5a1d1a4566fadcd847ef4098c234052fdfd288e8b6ced';

function pythonAvailable(): boolean {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return probe.status === 0;
}

function runPython(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      'python3',
      [SCRIPT, ...args],
      { timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`python3 failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Record<string, unknown>);
      },
    );
  });
}

test("XMLRPC-AUTH-PARAM: Python's xmlrpc.client signs in with a value it computes with hashlib", async (t) => {
  if (!pythonAvailable()) {
    t.skip('python3 is not installed');
    return;
  }
  const server = await startXmlRpcTestServer();
  try {
    const out = await runPython([`http://${server.host}:${server.port}`, '123', 'Pass123']);
    assert.equal(out['authValue'], VECTOR_123);

    const gmd = out['getMonitoringData'] as { result: { data: string } };
    assert.deepEqual(Object.keys(gmd.result), ['data']);
    assert.match(gmd.result.data, /^<<<monitor_agent>>>/);
    assert.match(gmd.result.data, /<<<local/);

    const gmdx = out['getMonitoringDataXML'] as { result: { data: string } };
    assert.deepEqual(Object.keys(new XMLParser({ ignoreDeclaration: true }).parse(gmdx.result.data)), [
      'local',
    ]);

    assert.deepEqual(out['isActiveDirectoryEnabled'], { result: { activeDirectoryEnabled: 'false' } });
    assert.equal((out['withoutLogin'] as { fault: { faultCode: number } }).fault.faultCode, -32001);
    assert.equal((out['unknownMethod'] as { fault: { faultCode: number } }).fault.faultCode, -32601);
  } finally {
    await server.close();
  }
});

test("XMLRPC-INSTANCE-RENAME: Python's client reaches the methods under a renamed instance", async (t) => {
  if (!pythonAvailable()) {
    t.skip('python3 is not installed');
    return;
  }
  const server = await startXmlRpcTestServer();
  try {
    server.store.update((state) => {
      state.monitoring.instanceName = 'Überwachung';
      state.directory.activeDirectoryEnabled = true;
    });
    const out = await runPython([`http://${server.host}:${server.port}`, 'admin', 'secret', 'Überwachung']);
    assert.equal(typeof (out['getMonitoringData'] as { result: { data: unknown } }).result.data, 'string');
    assert.deepEqual(out['isActiveDirectoryEnabled'], { result: { activeDirectoryEnabled: 'true' } });
  } finally {
    await server.close();
  }
});
