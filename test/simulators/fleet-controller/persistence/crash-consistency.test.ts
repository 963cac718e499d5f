import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { partsOf } from '../../../../simulators/fleet-controller/controller-parts.ts';
import { start } from '../../../../simulators/fleet-controller/index.ts';
import { commitAcknowledge } from '../../../../simulators/fleet-controller/model/acknowledge.ts';
import { encodeLine, LineReader } from '../../../../simulators/shared/wire/ingest-protocol.ts';
import { basic, FAST_SCRYPT, fleetCore, report, SAM, T0 } from '../fleet-test-kit.ts';
import { consistencyProblems, INGEST_PBXS, streamOccurrences } from './fleet-consistency.ts';

const WRITER = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url));
const INGEST_CONTROLLER = fileURLToPath(new URL('./fixtures/ingest-controller.ts', import.meta.url));
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
      const state = partsOf(fleet).state;
      assert.deepEqual(consistencyProblems(state), [], context);
      assert.ok(state.attention.history.length > previous.history, `${context}: history grew`);
      assert.ok(state.ingest.stats.accepted > previous.accepted, `${context}: reports grew`);
      previous = { history: state.attention.history.length, accepted: state.ingest.stats.accepted };
      const ids = new Set(state.attention.history.map((h) => h.seq));
      assert.equal(ids.size, state.attention.history.length, `${context}: history ids unique`);

      // New writes continue above every stored id.
      const maxItem = Math.max(
        ...[...state.access.sites.keys()].flatMap((s) => state.attention.book.itemsOf(s).map((i) => i.id)),
      );
      const { item } = await fleet.control.injectEvent({
        siteId: 'site-muenchen',
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
        (state.attention.history.at(-1)?.seq ?? 0) > Math.max(...ids),
        `${context}: a new history entry gets a new seq`,
      );
      assert.deepEqual(consistencyProblems(state), [], `${context}, after new writes`);
      previous = { history: state.attention.history.length, accepted: state.ingest.stats.accepted };
    } finally {
      await fleet.close();
    }
  }
});

test('the consistency check finds each kind of damage a torn write would leave', async () => {
  const damaged = async (damage: (core: Awaited<ReturnType<typeof fleetCore>>) => void) => {
    const core = await fleetCore();
    const outcome = core.state.attention.report('site-bremen', report({ at: T0 }));
    assert.notEqual(outcome.kind, 'capped');
    if (outcome.kind === 'capped') return [];
    core.clock.advance(1);
    commitAcknowledge(
      core.state,
      core.state.access.requireAccount('acc-anna'),
      outcome.item,
      null,
      'console',
    );
    assert.deepEqual(consistencyProblems(core.state), [], 'intact before the damage');
    damage(core);
    return consistencyProblems(core.state);
  };
  assert.match((await damaged(({ state }) => state.attention.history.pop())).join(), /has no history entry/);
  assert.match(
    (await damaged(({ state }) => state.attention.book.get(1)?.acks.clear())).join(),
    /has no acknowledgement/,
  );
  assert.match(
    (
      await damaged(({ state }) => state.attention.history.push({ ...state.attention.history[0]!, seq: 2 }))
    ).join(),
    /duplicated history/,
  );
  assert.match((await damaged(({ state }) => state.ingest.stats.accepted++)).join(), /stats.accepted/);
  assert.match(
    (await damaged(({ state }) => state.ingest.acceptSequence('site-kiel\u0000crash-stream', 3))).join(),
    /stream at seq 3/,
  );
});

type FloodPbx = (typeof INGEST_PBXS)[number];

/** The event a flood PBX sends under `seq`: the same content whenever it is (re-)sent. */
function floodEvent(pbx: FloodPbx, seq: number): string {
  return encodeLine({
    type: 'event',
    seq,
    event: { module: pbx.module, subject: `Ereignis ${seq % 10}`, severity: 'WARNING', at: T0 + seq },
    suppressed: 0,
  });
}

/**
 * One PBX on the ingest link, as the forwarder behaves: hello, then events from the `welcome`
 * position on (so unacknowledged ones are re-sent) with up to `window` unacknowledged, until
 * `until` is sent and acknowledged or the connection drops. Reports every ack; acks must come in
 * order. Resolves with the highest sequence number sent.
 */
function flood(
  ingest: string,
  pbx: FloodPbx,
  options: { window: number; until: number; onWelcome(lastSeq: number): void; onAck(seq: number): void },
): Promise<number> {
  const url = new URL(ingest);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const reader = new LineReader();
    let sent = 0;
    let acked = 0;
    const fill = () => {
      let out = '';
      while (sent - acked < options.window && sent < options.until) out += floodEvent(pbx, ++sent);
      if (out) socket.write(out);
      else if (acked >= options.until) socket.end();
    };
    socket.on('connect', () =>
      socket.write(
        encodeLine({ type: 'hello', version: 1, siteId: pbx.siteId, key: pbx.key, stream: pbx.stream }),
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const line of reader.push(chunk)) {
          const message = JSON.parse(line) as { type: string; seq?: number; lastSeq?: number };
          if (message.type === 'welcome') {
            sent = acked = message.lastSeq ?? 0;
            options.onWelcome(acked);
          } else if (message.type === 'ack' && message.seq === acked + 1) {
            acked = message.seq;
            options.onAck(acked);
          } else {
            throw new Error(`${pbx.stream}: unexpected ${line} after ack ${acked}`);
          }
        }
        fill();
      } catch (error) {
        socket.destroy();
        reject(error);
      }
    });
    // A killed controller resets or closes the connection: the flood ends there.
    socket.on('error', () => socket.destroy());
    socket.on('close', () => resolve(sent));
  });
}

/** Resolves with the first stdout line of the child, parsed; rejects if it exits first. */
function firstLine(child: ChildProcess): Promise<{ ingest: string }> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`controller not listening after 30 s: ${err}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const end = out.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        resolve(JSON.parse(out.slice(0, end)));
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`controller exited early (${code ?? signal}): ${err.slice(0, 2000)}`));
    });
  });
}

test('a controller killed (SIGKILL) during batched ingestion keeps every report it acknowledged, and re-sent reports count once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-ingest-crash-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  /** Per stream: highest sequence number sent and highest acknowledged, over all rounds. */
  const sent = new Map<string, number>(INGEST_PBXS.map((p) => [p.stream, 0]));
  const acked = new Map<string, number>(INGEST_PBXS.map((p) => [p.stream, 0]));
  for (let round = 1; round <= 3; round++) {
    // A timer, not an ack, fires the kill: it lands wherever the controller is, mid-batch included.
    const killAfterMs = 20 + Math.floor(Math.random() * 300);
    const context = `round ${round}, kill ${killAfterMs} ms into the ingestion`;
    const child = spawn(process.execPath, ['--import', 'tsx', INGEST_CONTROLLER, dir], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let roundAcks = 0;
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
      const { ingest } = await firstLine(child);
      const sentNow = await Promise.all(
        INGEST_PBXS.map((pbx) =>
          flood(ingest, pbx, {
            window: 512,
            until: Number.MAX_SAFE_INTEGER,
            onWelcome: (lastSeq) => assert.ok(lastSeq >= (acked.get(pbx.stream) ?? 0), `${context}: welcome`),
            onAck: (seq) => {
              acked.set(pbx.stream, seq);
              if (++roundAcks === 1) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
            },
          }),
        ),
      );
      for (const [n, pbx] of INGEST_PBXS.entries())
        sent.set(pbx.stream, Math.max(sent.get(pbx.stream) ?? 0, sentNow[n] ?? 0));
    } finally {
      clearTimeout(guard);
      child.kill('SIGKILL');
    }
    assert.equal(await exited(child), 'SIGKILL', context);
    assert.ok(roundAcks > 0, `${context}: nothing was acknowledged`);

    const fleet = await start({ dataDir: dir, scryptCost: FAST_SCRYPT });
    try {
      const state = partsOf(fleet).state;
      assert.deepEqual(consistencyProblems(state), [], context);
      for (const pbx of INGEST_PBXS) {
        const lastSeq = state.ingest.lastSequence(`${pbx.siteId}\u0000${pbx.stream}`);
        const where = `${context}, ${pbx.stream}`;
        assert.ok(
          lastSeq >= (acked.get(pbx.stream) ?? 0),
          `${where}: acked ${acked.get(pbx.stream)}, kept ${lastSeq}`,
        );
        assert.ok(lastSeq <= (sent.get(pbx.stream) ?? 0), `${where}: kept more than was sent`);
        assert.equal(streamOccurrences(state, pbx), lastSeq, `${where}: each kept event counts once`);
      }
      // The PBXs reconnect and re-send what was not acknowledged; nothing counts twice.
      await Promise.all(
        INGEST_PBXS.map((pbx) =>
          flood(fleet.urls.ingest, pbx, {
            window: 64,
            until: sent.get(pbx.stream) ?? 0,
            onWelcome: (lastSeq) => {
              assert.equal(lastSeq, state.ingest.lastSequence(`${pbx.siteId}\u0000${pbx.stream}`), context);
              // Processed before the kill even if its ack never arrived: the welcome says so.
              acked.set(pbx.stream, lastSeq);
            },
            onAck: (seq) => acked.set(pbx.stream, seq),
          }),
        ),
      );
      for (const pbx of INGEST_PBXS) {
        assert.equal(
          acked.get(pbx.stream),
          sent.get(pbx.stream),
          `${context}, ${pbx.stream}: all acknowledged`,
        );
        assert.equal(
          streamOccurrences(state, pbx),
          sent.get(pbx.stream),
          `${context}, ${pbx.stream}: exactly once`,
        );
      }
      assert.deepEqual(consistencyProblems(state), [], `${context}, after the re-send`);
    } finally {
      await fleet.close();
    }
  }
});
