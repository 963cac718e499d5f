/** The `<<<local>>>` section (local-checks.feature). */
import assert from 'node:assert/strict';
import { type DataTable, Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { type AgentTextView, sectionsNamed, viewAgentText } from '../support/agent-text-view.ts';
import { binaryUnit } from '../support/binary-unit.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { BACKUP_SUCCESSFUL, backupTarget } from '../support/fixtures.ts';
import { latestAgentView, latestJson, latestXmlRoot } from '../support/latest-snapshots.ts';
import { checkLocalLine, type LocalLine } from '../support/local-line-shape.ts';
import { findJsonFields } from '../support/snapshot-values.ts';
import type { PbxWorld } from '../support/world.ts';
import { childrenNamed } from '../support/xml-document.ts';

/** The lines of `<<<local>>>` (also `<<<local:sep(0)>>>`, the conventional header). */
function localLines(view: AgentTextView): string[] {
  return sectionsNamed(view, 'local').flatMap((s) => s.lines);
}

/** Every local line parsed; fails on the first line that does not have the shape. */
function localChecks(world: PbxWorld): LocalLine[] {
  return localLines(latestAgentView(world)).map((line, i) => {
    const checked = checkLocalLine(line);
    assert.ok(checked.ok, `local line ${i + 1} ${JSON.stringify(line)}: ${checked.ok ? '' : checked.reason}`);
    return checked.line;
  });
}

function serviceNames(world: PbxWorld): string[] {
  return localChecks(world).map((c) => c.name);
}

/** Problems of every local line of `view`; empty when all lines have the shape. */
function shapeProblems(view: AgentTextView): string[] {
  return localLines(view).flatMap((line, i) => {
    const checked = checkLocalLine(line);
    return checked.ok ? [] : [`line ${i + 1} ${JSON.stringify(line)}: ${checked.reason}`];
  });
}

function jsonList(world: PbxWorld, name: string): Record<string, unknown>[] {
  const list = findJsonFields(latestJson(world), name).find(Array.isArray);
  assert.ok(list, `the JSON snapshot has no list ${name}`);
  return list as Record<string, unknown>[];
}

Then(
  'the agent text has a section {string} with at least one line',
  function (this: PbxWorld, header: string) {
    const name = header.replace(/^<<<|>>>$/g, '');
    const view = latestAgentView(this);
    assert.ok(sectionsNamed(view, name).length > 0, `no section ${header}`);
    assert.ok(localLines(view).length > 0, `${header} has no line`);
  },
);

Then(
  'every line of the local checks has the shape <status 0-2> "<service name>" <metrics> <text>',
  function (this: PbxWorld) {
    assert.deepEqual(shapeProblems(latestAgentView(this)), []);
  },
);

/** Names with the characters that could break a local line: quotes, bars, equals, breaks, `<<<`. */
const awkwardName = fc
  .string({ unit: binaryUnit, minLength: 1, maxLength: 24 })
  .filter((s) => s.trim() !== '');

Then(
  'for generated names of module instances, backup locations and SIP trunks every local-check line keeps its shape \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const control = this.control;
    if (!control)
      return this.notVerifiable(this.noControlReason('set names of instances, backups and trunks'));
    const baseline = await control.getState();
    const now = (await control.now()).now;
    await assertLiveProperty(
      this,
      'local lines keep their shape',
      fc.asyncProperty(awkwardName, awkwardName, awkwardName, async (instance, location, uri) => {
        const modules = structuredClone(baseline.modules);
        modules[0]!.instances[0]!.name = instance;
        await control.patchState({
          modules,
          backups: [
            backupTarget('SMB', location, 'ok', [{ time: now - 3_600_000, result: BACKUP_SUCCESSFUL }]),
          ],
          sipProviders: [{ uri, registered: true }],
        });
        await control.invalidateSnapshot();
        const reply = await this.httpRequest('GET', '/checkmk', { evidence: false });
        const view = viewAgentText(reply.body.toString('utf8'));
        assert.ok(localLines(view).length > 0, 'no local checks');
        assert.deepEqual(shapeProblems(view), []);
      }),
      runs,
    );
    return undefined;
  },
);

Then('the local checks include the services', function (this: PbxWorld, table: DataTable) {
  const names = serviceNames(this);
  const missing = table
    .raw()
    .flat()
    .filter((n) => n !== '' && !names.includes(n));
  assert.deepEqual(missing, [], `services: ${JSON.stringify(names)}`);
});

Then('the local checks include services whose names start with', function (this: PbxWorld, table: DataTable) {
  const names = serviceNames(this);
  const missing = table
    .raw()
    .flat()
    .filter((p) => p !== '' && !names.some((n) => n.startsWith(p)));
  assert.deepEqual(missing, [], `services: ${JSON.stringify(names)}`);
});

/** The part of a service name after its fixed prefix; the separator is not stated (MON-UNSPEC-LOCAL-DETAILS). */
function afterPrefix(name: string, prefix: string): string {
  return name.slice(prefix.length).replace(/^[\s:_-]+/, '');
}

Then(
  "there is one local check named {string} followed by the instance name for each {string} of the XML snapshot's modules",
  function (this: PbxWorld, prefix: string, child: string) {
    const instances = childrenNamed(latestXmlRoot(this), 'modules')
      .flatMap((m) => childrenNamed(m, 'module'))
      .flatMap((m) => childrenNamed(m, child))
      .map((i) => (i.text.trim() || i.attributes['name']) ?? '');
    assert.ok(instances.length > 0, 'the XML snapshot lists no module instances');
    const services = serviceNames(this).filter((n) => n.startsWith(prefix));
    assert.equal(
      services.length,
      instances.length,
      `services ${JSON.stringify(services)} for instances ${JSON.stringify(instances)}`,
    );
    for (const instance of instances) {
      const matching = services.filter((s) => afterPrefix(s, prefix) === instance);
      assert.equal(
        matching.length,
        1,
        `expected one "${prefix}" service for instance "${instance}": ${JSON.stringify(services)}`,
      );
    }
  },
);

Then(
  'the number of local checks whose names start with {string} equals the number of elements of the JSON list {string}',
  function (this: PbxWorld, prefix: string, name: string) {
    const services = serviceNames(this).filter((n) => n.startsWith(prefix));
    assert.equal(services.length, jsonList(this, name).length, `services: ${JSON.stringify(services)}`);
  },
);

Then(
  'there are {int} local checks whose names start with {string}',
  function (this: PbxWorld, count: number, prefix: string) {
    const services = serviceNames(this).filter((n) => n.startsWith(prefix));
    assert.equal(services.length, count, `services: ${JSON.stringify(services)}`);
  },
);

Then(
  'for each element of the JSON list {string} there is exactly one local check whose name starts with {string} and contains its {string}',
  function (this: PbxWorld, name: string, prefix: string, member: string) {
    const services = serviceNames(this).filter((n) => n.startsWith(prefix));
    const items = jsonList(this, name);
    assert.ok(items.length > 0, `the JSON list ${name} is empty`);
    for (const item of items) {
      const value = String(item[member]);
      const matching = services.filter((s) => s.includes(value));
      assert.equal(
        matching.length,
        1,
        `expected one "${prefix}" service with ${value}: ${JSON.stringify(services)}`,
      );
    }
  },
);
