import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ownLoopback } from './support.ts';

const SCRIPT = fileURLToPath(new URL('../fixtures/fake_pbx.py', import.meta.url));

export interface FakePbx {
  host: string;
  target: Record<string, unknown> & { name: string };
  close(): Promise<void>;
}

/**
 * Starts test/fixtures/fake_pbx.py (the independent fake PBX, written from field-line-shapes.md)
 * on a loopback address of its own and gives a target file for it.
 */
export async function startFakePbx(): Promise<FakePbx> {
  const host = await ownLoopback();
  const child: ChildProcess = spawn('python3', [SCRIPT, '--host', host], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('the fake PBX did not start within 10 s')), 10_000);
    child.once('error', reject);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        resolve(text.slice(0, end));
      }
    });
  });
  const ports = JSON.parse(line) as { data: number; web: number };
  return {
    host,
    target: {
      name: 'berlin-hq',
      pbx: {
        webUrl: `http://${host}:${ports.web}`,
        monitoring: { host, port: ports.data },
        xmlrpc: {
          path: '/xml-rpc',
          instanceName: 'Monitoring',
          authParam: 'de.vendor.pbx.auth',
          login: 'monitoring',
          password: 'fake-secret-1',
        },
        listedClientAddress: host,
      },
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
