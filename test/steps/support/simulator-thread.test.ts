import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { openEmbeddedTarget } from '../../../steps/support/embedded-target.ts';
import { simulatorThread } from '../../../steps/support/simulator-thread.ts';

/**
 * Issue 31 §1: the embedded simulator runs on a thread of its own (steps/support/simulator-thread.ts),
 * reached only through its URLs, its HTTP control plane and, for the duration clock, by message.
 */

test.after(() => simulatorThread.close());

test("the embedded simulator answers while the harness's main thread is blocked", async (t) => {
  const opened = await openEmbeddedTarget();
  t.after(() => opened.close());
  const url = `${opened.target.pbx.controlUrl!.replace(/\/$/, '')}/clock`;
  // A client on another thread asks the PBX's control plane while this thread is blocked: only a
  // simulator off this thread can answer before the wait times out.
  const answered = new Int32Array(new SharedArrayBuffer(4));
  const client = new Worker(
    `const { workerData } = require('node:worker_threads');
     fetch(workerData.url).then((r) => r.text()).then(
       () => { Atomics.store(workerData.answered, 0, 1); Atomics.notify(workerData.answered, 0); },
       () => { Atomics.store(workerData.answered, 0, 2); Atomics.notify(workerData.answered, 0); },
     );`,
    { eval: true, workerData: { url, answered } },
  );
  t.after(() => client.terminate());
  const outcome = Atomics.wait(answered, 0, 0, 10_000);
  assert.equal(outcome, 'ok', 'no answer while the main thread was blocked');
  assert.equal(Atomics.load(answered, 0), 1, 'the request failed');
});

test('a silent client’s raw-mode grace passes on the duration clock, advanced by message', async (t) => {
  const opened = await openEmbeddedTarget();
  t.after(() => opened.close());
  const { pbx } = opened.target;
  assert.ok(pbx.control && pbx.monitoring && pbx.durationClock);
  await pbx.control.patchState({ monitoring: { rawGraceMs: 60_000 } });
  const socket = connect({ host: pbx.monitoring.host, port: pbx.monitoring.port, localAddress: '127.0.0.1' });
  t.after(() => socket.destroy());
  await once(socket, 'connect');
  const data = once(socket, 'data').then(([chunk]) => chunk as Buffer);
  await sleep(100);
  await pbx.durationClock.advance(60_001);
  const chunk = await Promise.race([data, sleep(5_000).then(() => null)]);
  assert.ok(chunk && chunk.length > 0, 'no raw answer after the grace passed on the duration clock');
});

test('each default target is a fresh simulator of its own, and every one is closed with the thread', async () => {
  const first = await openEmbeddedTarget();
  const second = await openEmbeddedTarget();
  const urls = [first.target.pbx.webUrl, second.target.pbx.webUrl];
  assert.notEqual(urls[0], urls[1]);
  await first.close();
  await second.close();
  await simulatorThread.close();
  for (const url of urls) {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port) });
    const outcome = await new Promise<string | undefined>((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
    });
    socket.destroy();
    assert.equal(outcome, 'ECONNREFUSED', `${url} still listens after the thread closed`);
  }
});
