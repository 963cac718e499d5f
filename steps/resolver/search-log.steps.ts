/**
 * The search log as the search-requests tab shows it (RESOLVER-DIAG-LOG, RESOLVER-DIAG-LOG-EXPERT,
 * RESOLVER-4XX-HINT, RESOLVER-TIMEOUT-WARNING, RESOLVER-NO-RESULT). Its format and wording are
 * open (RESOLVER-UNSPEC-LOG-TEXTS): a line shows a fact when its text or its data carries it, and
 * the kind of a line (a warning, a hint) is read from the control plane's `level` and `step`.
 */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import type { PbxWorld } from '../support/world.ts';
import type { SearchLogEntry } from './support/resolver-control.ts';
import { MAIN } from './support/resolver-scenario.ts';
import { resolverScenario } from './support/resolver-scenario-of.ts';
import { isTimeoutWarning } from './support/timeout-warning.ts';
import { withResolver } from './support/with-resolver.ts';

function text(line: SearchLogEntry): string {
  return `${line.message} ${JSON.stringify(line.data ?? {})}`;
}

function showsStatus(line: SearchLogEntry, status: number): boolean {
  return line.data?.['status'] === status || new RegExp(`\\b${status}\\b`).test(line.message);
}

/** Index of the first line at or after `from` for which `test` holds, or a failure naming `what`. */
function find(
  lines: SearchLogEntry[],
  from: number,
  what: string,
  test: (l: SearchLogEntry) => boolean,
): number {
  const at = lines.findIndex((line, i) => i >= from && test(line));
  assert.ok(at >= 0, `the search log shows no ${what}${from > 0 ? ' after the lines before' : ''}`);
  return at;
}

Then('the search log of the resolution has a timeout warning', function (this: PbxWorld) {
  return withResolver(this, 'read the search log', async (control, scenario) => {
    const lines = await scenario.lastLog(control);
    assert.ok(lines.some(isTimeoutWarning), 'no timeout warning');
  });
});

Then('the search log of the resolution has no timeout warning', function (this: PbxWorld) {
  return withResolver(this, 'read the search log', async (control, scenario) => {
    const lines = await scenario.lastLog(control);
    assert.ok(lines.length > 0, 'the resolution left no search-log lines');
    assert.deepEqual(lines.filter(isTimeoutWarning), []);
  });
});

Then('the search log of the resolution contains {string}', function (this: PbxWorld, expected: string) {
  return withResolver(this, 'read the search log', async (control, scenario) => {
    const lines = await scenario.lastLog(control);
    assert.ok(
      lines.some((l) => l.message.includes(expected)),
      `no line says ${JSON.stringify(expected)}`,
    );
  });
});

Then('the search log of the resolution has a hint', function (this: PbxWorld) {
  return withResolver(this, 'read the search log', async (control, scenario) => {
    const lines = await scenario.lastLog(control);
    assert.ok(
      lines.some((l) => l.step === 'hint' && l.message.trim() !== ''),
      'the search log has no hint line',
    );
  });
});

/**
 * A parser hit is looked for as the formatter's output, which must be text the answer does not
 * hold: otherwise a line that only echoes the body would pass for the hit.
 */
function assertHitsNotInBody(world: PbxWorld, hits: string[]): void {
  const { fallback, routes } = resolverScenario(world).endpoint(MAIN).handle.control.config();
  const bodies = [fallback, ...Object.values(routes ?? {})].map((b) =>
    b?.body instanceof Uint8Array ? Buffer.from(b.body).toString('latin1') : (b?.body ?? ''),
  );
  for (const hit of hits)
    assert.ok(
      bodies.every((body) => !body.includes(hit)),
      `the scenario is unsound: the answer itself holds the parser hit ${JSON.stringify(hit)}; use a formatter that changes the text`,
    );
}

async function stepByStep(world: PbxWorld, path: string, status: number, hits: string[] = []) {
  assertHitsNotInBody(world, hits);
  return withResolver(world, 'read the search log', async (control, scenario) => {
    const lines = await scenario.lastLog(control);
    const url = `${scenario.endpoint(MAIN).base}${path}`;
    const urlAt = find(lines, 0, `URL ${url}`, (l) => text(l).includes(url));
    const statusAt = find(lines, urlAt + 1, `HTTP status ${status}`, (l) => showsStatus(l, status));
    for (const hit of hits)
      find(lines, statusAt + 1, `parser hit ${JSON.stringify(hit)}`, (l) => text(l).includes(hit));
  });
}

Then(
  'the search log of the resolution shows, in this order, the URL of the path {string}, the HTTP status {int} and the parser hits {names}',
  function (this: PbxWorld, path: string, status: number, hits: string[]) {
    return stepByStep(this, path, status, hits);
  },
);

Then(
  'the search log of the resolution shows, in this order, the URL of the path {string} and the HTTP status {int}',
  function (this: PbxWorld, path: string, status: number) {
    return stepByStep(this, path, status);
  },
);

Then(
  'the search log of the resolution shows the redirect with status {int} to {string}',
  function (this: PbxWorld, status: number, location: string) {
    return withResolver(this, 'read the search log', async (control, scenario) => {
      const lines = await scenario.lastLog(control);
      find(
        lines,
        0,
        `redirect ${status} to ${location}`,
        (l) => text(l).includes(location) && showsStatus(l, status),
      );
    });
  },
);

Then(
  'the search log of the resolution shows the encoded URI the customer endpoint received first',
  function (this: PbxWorld) {
    return withResolver(this, 'read the search log', async (control, scenario) => {
      const record = resolverScenario(this).requests(MAIN)[0];
      assert.ok(record, 'the customer endpoint received no request');
      const lines = await scenario.lastLog(control);
      find(lines, 0, `encoded URI ${record.target}`, (l) => text(l).includes(record.target));
    });
  },
);
