import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../bin/pbx-conformance.js', import.meta.url));

test('the real binary starts and prints its help', async () => {
  const child = spawn(process.execPath, [BIN, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  assert.match(stdout, /Usage: pbx-conformance/);
  assert.match(stdout, /verify/);
  assert.match(stdout, /simulate/);
});

test('the real binary runs the simulator until SIGTERM and exits 0', async () => {
  const child = spawn(process.execPath, [BIN, 'simulate', '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const firstLine = new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const target = JSON.parse(await firstLine) as { name: string };
  assert.equal(target.name, 'simulator');
  child.kill('SIGTERM');
  assert.equal(await closed, 0, stderr);
  assert.match(stderr, /stopping the simulator/);
});

test('a reader that goes away (`verify --help | head -1`) ends the help quietly: no EPIPE trace', async () => {
  const child = spawn(process.execPath, [BIN, 'verify', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
  // The reader closes its end before the CLI has started, so every write meets a closed pipe.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.doesNotMatch(stderr, /EPIPE|Unhandled|\n\s+at /);
  assert.equal(stderr, '');
  assert.equal(code, 0);
});
