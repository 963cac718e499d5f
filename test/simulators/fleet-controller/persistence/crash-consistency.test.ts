import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { start } from '../../../../simulators/fleet-controller/index.ts';
import { commitAcknowledge } from '../../../../simulators/fleet-controller/model/acknowledge.ts';
import { basic, FAST_SCRYPT, fleetCore, report, SAM, T0 } from '../fleet-test-kit.ts';
import { consistencyProblems } from './fleet-consistency.ts';

const WRITER = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const ROUNDS = 4;

/** Resolves once the child printed `ready`; rejects if it exits first or takes longer than 30 s. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`writer not ready after 30 s: ${err}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('ready\n')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`writer exited early (${code ?? signal}): ${err.slice(0, 2000)}`));
    });
  });
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
}

test('a controller killed (SIGKILL) in the middle of writing restarts consistent: every acknowledgement has its history entry and back', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-crash-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  let previous = { history: 0, accepted: 0 };
  for (let round = 1; round <= ROUNDS; round++) {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const delayMs = 50 + Math.floor(Math.random() * 450);
    const context = `round ${round}, seed ${seed}, kill after ${delayMs} ms`;
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, String(seed)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await ready(child);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    } finally {
      child.kill('SIGKILL');
    }
    assert.equal(await exited(child), 'SIGKILL', `${context}: the writer was still writing when killed`);

    // The database opens cleanly and holds what the writer committed.
    const fleet = await start({ dataDir: dir, scryptCost: FAST_SCRYPT });
    try {
      const state = fleet.internals.state;
      assert.deepEqual(consistencyProblems(state), [], context);
      assert.ok(state.history.length > previous.history, `${context}: history grew`);
      assert.ok(state.stats.accepted > previous.accepted, `${context}: reports grew`);
      previous = { history: state.history.length, accepted: state.stats.accepted };
      const ids = new Set(state.history.map((h) => h.seq));
      assert.equal(ids.size, state.history.length, `${context}: history ids unique`);

      // New writes continue above every stored id.
      const maxItem = Math.max(
        ...[...state.sites.keys()].flatMap((s) => state.book.itemsOf(s).map((i) => i.id)),
      );
      const { item } = await fleet.control.injectEvent('site-muenchen', {
        module: 'Neustart',
        subject: `Runde ${round}`,
        severity: 'WARNING',
      });
      assert.ok(item && item.id > maxItem, `${context}: a new item gets a new id`);
      const res = await fetch(
        `${fleet.urls.api}/api/v1/sites/site-muenchen/attention/${item.id}/acknowledge`,
        {
          method: 'POST',
          headers: { authorization: basic(SAM) },
        },
      );
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      assert.ok(
        (state.history.at(-1)?.seq ?? 0) > Math.max(...ids),
        `${context}: a new history entry gets a new seq`,
      );
      assert.deepEqual(consistencyProblems(state), [], `${context}, after new writes`);
      previous = { history: state.history.length, accepted: state.stats.accepted };
    } finally {
      await fleet.close();
    }
  }
});

test('the consistency check finds each kind of damage a torn write would leave', async () => {
  const damaged = async (damage: (core: Awaited<ReturnType<typeof fleetCore>>) => void) => {
    const core = await fleetCore();
    const outcome = core.state.report('site-bremen', report({ at: T0 }));
    assert.notEqual(outcome.kind, 'capped');
    if (outcome.kind === 'capped') return [];
    core.clock.advance(1);
    commitAcknowledge(core.state, core.state.requireAccount('acc-anna'), outcome.item, null, 'console');
    assert.deepEqual(consistencyProblems(core.state), [], 'intact before the damage');
    damage(core);
    return consistencyProblems(core.state);
  };
  assert.match((await damaged(({ state }) => state.history.pop())).join(), /has no history entry/);
  assert.match(
    (await damaged(({ state }) => state.book.get(1)?.acks.clear())).join(),
    /has no acknowledgement/,
  );
  assert.match(
    (await damaged(({ state }) => state.history.push({ ...state.history[0]!, seq: 2 }))).join(),
    /duplicated history/,
  );
  assert.match((await damaged(({ state }) => state.stats.accepted++)).join(), /stats.accepted/);
  assert.match(
    (await damaged(({ state }) => state.acceptSequence('site-kiel\u0000crash-stream', 3))).join(),
    /stream at seq 3/,
  );
});
