import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type LocalCheck, localChecks } from '../../../../../simulators/pbx/snapshot/render/local-checks.ts';
import { formatLocalLine, formatMetric } from '../../../../../simulators/pbx/snapshot/render/local-line.ts';
import { NOW, scenarioState } from './snapshot-of.ts';

function byName(checks: LocalCheck[], name: string): LocalCheck {
  const check = checks.find((c) => c.name === name);
  assert.ok(check, `no local check ${name}`);
  return check;
}

test('the healthy state gives OK for every local check', () => {
  const checks = localChecks(scenarioState('healthy'), NOW);
  assert.deepEqual(
    checks.filter((c) => c.status !== 0).map((c) => c.name),
    [],
  );
  assert.equal(checks.length, 14 + 4 + 2 + 2);
});

test('scenarios turn the matching local checks to warning or critical', () => {
  assert.equal(byName(localChecks(scenarioState('update-major'), NOW), 'PBX update').status, 2);
  assert.equal(byName(localChecks(scenarioState('update-minor'), NOW), 'PBX update').status, 1);
  assert.equal(
    byName(localChecks(scenarioState('all-phones-offline'), NOW), 'PBX All Phones Offline').status,
    2,
  );
  const failed = localChecks(scenarioState('backup-failed'), NOW);
  assert.equal(byName(failed, 'PBX Backup SMB 192.0.2.6:/Backup').status, 2);
  assert.equal(byName(failed, 'PBX Backup HDD').status, 0);
  const trunk = localChecks(scenarioState('trunk-unregistered'), NOW);
  assert.equal(byName(trunk, 'PBX SIP Provider sip:4711234@sipgate.de').status, 2);
  assert.equal(byName(trunk, 'PBX SIP Provider sip:+4930123456@tel.t-online.de').status, 0);
});

test('fax queue warns from 5 and is critical from 10 queued faxes, with those levels in its metric', () => {
  const state = scenarioState('healthy');
  const statusAt = (queued: number) => {
    state.system.faxQueue = queued;
    return byName(localChecks(state, NOW), 'PBX Fax Queue');
  };
  assert.equal(statusAt(4).status, 0);
  assert.equal(statusAt(5).status, 1);
  assert.equal(statusAt(9).status, 1);
  assert.equal(statusAt(10).status, 2);
  assert.equal(formatMetric(statusAt(7).metrics[0] ?? assert.fail()), 'queued=7;5;10;0');
});

test('licence usage is critical above the licensed count and warns when every licence is taken', () => {
  const state = scenarioState('healthy');
  state.licence.fullUsers = { licensed: 10, used: 11 };
  state.licence.lightUsers = { licensed: 10, used: 10 };
  state.licence.iQueues.skill = { licensed: 0, used: 0 };
  const checks = localChecks(state, NOW);
  assert.equal(byName(checks, 'Licensed/Used full users').status, 2);
  assert.equal(byName(checks, 'Licensed/Used light users').status, 1);
  assert.equal(byName(checks, 'Licensed/Used iQueues skill based').status, 0);
  assert.equal(
    formatLocalLine(byName(checks, 'Licensed/Used full users')).split(' ')[4],
    'used=11;;;0;10|licensed=10',
  );
});

test('the update contract warns within 30 days and is critical once expired', () => {
  const state = scenarioState('healthy');
  const day = 86_400_000;
  const at = (date: string, now: number) => {
    state.licence.updateContractValidUntil = date;
    return byName(localChecks(state, now), 'Update contract valid until');
  };
  const now = Date.UTC(2027, 5, 1, 12);
  assert.equal(at('2027-09-01', now).status, 0);
  assert.equal(at('2027-06-20', now).status, 1);
  assert.equal(at('2027-06-01', now).status, 0 + 1);
  assert.equal(at('2027-05-31', now).status, 2);
  assert.equal(at('not a date', now).status, 1);
  assert.equal(at('2027-07-01', now).metrics[0]?.value, Math.floor((Date.UTC(2027, 6, 2) - now) / day));
});

test('unknown numbers (-1) give a warning without metrics instead of a made-up value', () => {
  const checks = localChecks(scenarioState('values-unknown'), NOW);
  const full = byName(checks, 'Licensed/Used full users');
  assert.equal(full.status, 1);
  assert.deepEqual(full.metrics, []);
  assert.equal(byName(checks, 'PBX Fax Queue').status, 1);
  assert.equal(byName(checks, 'PBX All Phones Offline').status, 0);
});

test('names lose quotes and line breaks, and a repeated name gets a number', () => {
  const state = scenarioState('healthy');
  state.modules = [
    {
      name: 'M',
      id: 'm',
      version: '1',
      vendor: 'V',
      instances: [
        { name: 'Say "hi"\nto \'all\'', status: 1, statusText: 'line1\nline2' },
        { name: 'Say hi to all', status: 0, statusText: 'ok' },
      ],
    },
  ];
  const modules = localChecks(state, NOW).filter((c) => c.name.startsWith('PBX Module'));
  assert.deepEqual(
    modules.map((c) => c.name),
    ['PBX Module Say hi to all', 'PBX Module Say hi to all (2)'],
  );
  assert.equal(modules[0]?.text.includes('\n'), false);
  assert.equal(modules[0]?.status, 1);
});

test('a local line is status, the quoted name, metrics or -, and the text', () => {
  const line = formatLocalLine({
    status: 1,
    name: 'PBX Fax Queue',
    metrics: [{ name: 'queued', value: 6, warn: 5, crit: 10, min: 0 }],
    text: '6 faxes queued',
  });
  assert.equal(line, '1 "PBX Fax Queue" queued=6;5;10;0 6 faxes queued');
  assert.equal(
    formatLocalLine({ status: 0, name: 'PBX version', metrics: [], text: 'x' }),
    '0 "PBX version" - x',
  );
  assert.equal(formatMetric({ name: 'a', value: 1.5e-7, max: 3 }), 'a=0.00000015;;;;3');
});
