import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import fc from 'fast-check';
import type { WebRoute } from '../../simulators/pbx/index.ts';
import { loadCatalog } from '../../src/catalog/load-catalog.ts';
import { xmlrpcGenerators } from '../../src/fuzz/faces/xmlrpc.ts';
import { fuzzReport } from '../../src/fuzz/fuzz-report.ts';
import { startInProcessTarget } from '../../src/fuzz/in-process-target.ts';
import { runFuzz } from '../../src/fuzz/run-fuzz.ts';
import { FACES } from '../../src/fuzz/types.ts';
import { validateReport } from '../../src/report/validate-report.ts';

/** scrypt cost for tests: wrong fleet passwords cost one hash each. */
const FAST_SCRYPT = { N: 1024, r: 8, p: 1 };

test('fuzz: 2,000 generated inputs over the five faces of the simulator, no crash, hang, 5xx or mismatch', async () => {
  const target = await startInProcessTarget({ scryptCost: FAST_SCRYPT });
  try {
    const result = await runFuzz(target.info, {
      runs: 400,
      seed: 20_261_125,
      faces: FACES,
      boundMs: 15_000,
      batchSize: 100,
      maintenanceCommands: target.maintenanceCommands,
    });
    const failures = result.generators.filter((g) => g.status !== 'passed');
    assert.deepEqual(
      failures.map((g) => `${g.id}: ${g.status} ${g.reason ?? g.failure?.message ?? ''}`),
      [],
    );
    for (const total of result.totals) {
      assert.ok(total.inputs >= 400, `${total.face}: ${total.inputs} inputs`);
      assert.deepEqual(
        [total.crashes, total.hangs, total.fiveXx, total.mismatches],
        [0, 0, 0, 0],
        total.face,
      );
    }
    // The same report model as verify: per face and clause, schema-valid.
    const report = fuzzReport(result, await loadCatalog(), {
      target: 'embedded',
      targetFile: null,
      tagExpression: null,
    });
    assert.deepEqual(validateReport(report), []);
    assert.ok(report.outcome.passed, report.outcome.reasons.join('; '));
    const clause = report.interfaces.flatMap((i) => i.clauses).find((c) => c.id === 'MAINT-AUTH-401-INVALID');
    assert.equal(clause?.verdict, 'pass');
    assert.match(clause?.scenarios[0]?.uri ?? '', /^fuzz\/maintenance$/);
  } finally {
    await target.close();
  }
});

/**
 * The seeded deviation: the XML-RPC route answers 500 to any body holding a NUL byte and passes
 * every other request to the real handler.
 */
function nulIs500(route: WebRoute): WebRoute {
  if (route.prefix !== '/xml-rpc') return route;
  return seedDeviation(route, (_req, body, res) => {
    if (!body.includes(0)) return false;
    res.writeHead(500, { 'content-type': 'text/plain', 'content-length': 9 }).end('internal\n');
    return true;
  });
}

/**
 * Wraps `route`: reads each request's body, lets `deviate` answer it (returning true), and hands
 * every request it does not answer, body and all, to the real handler.
 */
function seedDeviation(
  route: WebRoute,
  deviate: (req: IncomingMessage, body: Buffer, res: ServerResponse) => boolean,
): WebRoute {
  return {
    prefix: route.prefix,
    handle(req: IncomingMessage, res: ServerResponse) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (deviate(req, body, res)) return;
        const replay = Object.assign(new PassThrough(), {
          headers: req.headers,
          url: req.url,
          method: req.method,
          complete: true,
        });
        route.handle(replay as unknown as IncomingMessage, res);
        replay.end(body);
      });
    },
  };
}

test('fuzz finds a seeded deviation (HTTP 500 on a NUL byte), shrinks it, and its replay line reproduces it', async () => {
  const target = await startInProcessTarget({ scryptCost: FAST_SCRYPT, wrapWeb: nulIs500 });
  try {
    const options = {
      runs: 600,
      seed: 4242,
      faces: ['xmlrpc'] as const,
      boundMs: 15_000,
      batchSize: 100,
    };
    const result = await runFuzz(target.info, options);
    const failed = result.generators.find((g) => g.id === 'xmlrpc-malformed');
    assert.equal(failed?.status, 'failed');
    const failure = failed?.failure;
    assert.ok(failure);
    assert.equal(failure.kind, '5xx');
    assert.ok(failure.shrinks > 0, 'shrunk');
    const request = failure.request.bytes;
    const body = request.subarray(request.indexOf('\r\n\r\n') + 4);
    assert.equal(
      body.filter((byte) => byte === 0).length,
      1,
      `one NUL left: ${JSON.stringify(body.toString('latin1'))}`,
    );
    assert.match(
      failure.replayCommand,
      /^pbx-conformance fuzz --faces xmlrpc --seed 4242 --runs 600 --path 'xmlrpc-malformed\/[\d:]+'$/,
    );
    assert.match(failure.replayWire, /\\000/);
    // The credentials the request carried are never printed, not even partly.
    const secret = target.info.xmlrpc?.authValue.split(':')[1] ?? '';
    assert.equal(secret.length, 128);
    const printed = `${failure.replayWire}\n${failure.message}\n${failure.replayCommand}`;
    for (let i = 0; i + 8 <= secret.length; i++)
      assert.ok(!printed.includes(secret.slice(i, i + 8)), printed);
    assert.ok((result.totals[0]?.fiveXx ?? 0) >= 1);
    // The printed path replays exactly this input.
    const path = /--path '([^/]+)\/([\d:]+)'/.exec(failure.replayCommand);
    const again = await runFuzz(target.info, {
      ...options,
      replay: { generator: path?.[1] ?? '', path: path?.[2] ?? '' },
    });
    const replayed = again.generators.find((g) => g.id === 'xmlrpc-malformed')?.failure;
    assert.equal(replayed?.kind, '5xx');
    assert.deepEqual(replayed?.request.bytes, failure.request.bytes);
  } finally {
    await target.close();
  }
});

test('fuzz never prints a credential of the target: the replay line names it instead', async () => {
  // The seeded deviation on the maintenance API: 500 for a body with a NUL byte, behind the token.
  const valid = { token: '' };
  const nulIs500OnMaintenance = (route: WebRoute): WebRoute =>
    route.prefix === '/xml-rpc' || route.prefix.startsWith('/downloads')
      ? route
      : seedDeviation(route, (req, body, res) => {
          const authorized = valid.token !== '' && req.headers.authorization === `Bearer ${valid.token}`;
          if (!authorized || !body.includes(0)) return false;
          res.writeHead(500, { 'content-length': 0 }).end();
          return true;
        });
  const target = await startInProcessTarget({ scryptCost: FAST_SCRYPT, wrapWeb: nulIs500OnMaintenance });
  try {
    const token = target.info.maintenance?.token ?? '';
    assert.equal(token.length, 43);
    valid.token = token;
    const result = await runFuzz(target.info, {
      runs: 800,
      seed: 77,
      faces: ['maintenance'],
      boundMs: 15_000,
      batchSize: 100,
      maintenanceCommands: target.maintenanceCommands,
    });
    const failure = result.generators.find((g) => g.failure?.kind === '5xx')?.failure;
    assert.ok(failure, JSON.stringify(result.totals));
    assert.ok(failure.request.bytes.includes(Buffer.from(token)), 'the request carried the token');
    assert.match(failure.replayWire, /Authorization: Bearer <maintenance token>/);
    const printed = `${failure.replayWire}\n${failure.message}`;
    for (let i = 0; i + 8 <= token.length; i++) assert.ok(!printed.includes(token.slice(i, i + 8)), printed);
  } finally {
    await target.close();
  }
});

// Issue 20, item 22: the shrunk `<nil/>` input kept a 128-hex wrong credential instead of dropping it.
test('a shrunk XML-RPC failure that does not depend on the credential drops it', () => {
  const [malformed] = xmlrpcGenerators({
    webUrl: 'http://127.0.0.1:1',
    path: '/xml-rpc',
    instanceName: 'Monitoring',
    authParam: 'de.vendor.pbx.auth',
    authValue: `123:${'a'.repeat(128)}`,
  });
  assert.equal(malformed?.id, 'xmlrpc-malformed');
  const details = fc.check(
    fc.property(malformed!.arbitrary as fc.Arbitrary<{ body: Buffer; auth: string | null }>, (input) => {
      return !input.body.toString('latin1').includes('<nil/>');
    }),
    { seed: 20, numRuns: 2000 },
  );
  assert.ok(details.failed, 'a <nil/> input was generated');
  assert.equal(details.counterexample?.[0].auth, null);
});
