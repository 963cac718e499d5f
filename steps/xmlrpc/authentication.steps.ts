/** Credentials of the data queries (authentication.feature, errors.feature). */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { ModuleLogEntry, PbxControl } from '../../simulators/pbx/index.ts';
import { xmlRpcAuthValue } from '../../src/clients/xmlrpc-auth-value.ts';
import { isStruct, type XmlRpcOutcome } from '../../src/clients/xmlrpc-call.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import { classifySnapshot } from '../support/snapshot-format.ts';
import { withControl } from '../support/with-control.ts';
import type { PbxWorld, XmlRpcAuth } from '../support/world.ts';
import { describeOutcome, isErrorReply, lastExchange } from '../support/xmlrpc-answers.ts';
import { unknownMethodDeviation, unknownMethodFault } from './support/unknown-method-fault.ts';

const moduleLogOf = (which: string, method: string) =>
  memoryKey<ModuleLogEntry[]>(`moduleLog:${which}:${method}`);
const FAILING_HANDLER_KINDS = memoryKey<string[]>('failingHandlerKinds');

function qualified(world: PbxWorld, name: string): string {
  return name.includes('.') ? name : world.methodName(name);
}

/** A secret of the right shape that belongs to no password: 128 hex digits. */
const WRONG_SECRET = 'f'.repeat(64) + '0'.repeat(64);

/** The invalid logins the scenarios name. */
function invalidLogin(world: PbxWorld, description: string): XmlRpcAuth {
  const { login, password } = world.pbx.xmlrpc;
  switch (description) {
    case 'an unknown login id':
      return { kind: 'credentials', login: `nobody-${login}-x`, password };
    case 'a wrong password':
      return { kind: 'credentials', login, password: `${password}-wrong` };
    case 'a wrong secret':
      return { kind: 'value', value: `${login}:${WRONG_SECRET}` };
    default:
      throw new Error(`no invalid login is described as "${description}"`);
  }
}

When(
  /^a caller with (an unknown login id|a wrong password|a wrong secret) calls "([^"]*)" with an empty struct$/,
  async function (this: PbxWorld, description: string, name: string) {
    await this.callXmlRpc(qualified(this, name), [{}], invalidLogin(this, description));
  },
);

When(
  'a caller with the credentials value {string} calls {string} with an empty struct',
  async function (this: PbxWorld, value: string, name: string) {
    await this.callXmlRpc(qualified(this, name), [{}], { kind: 'value', value });
  },
);

When(
  'a caller whose credentials carry the colon as {string} calls {string} with an empty struct',
  async function (this: PbxWorld, colon: string, name: string) {
    const { login, password } = this.pbx.xmlrpc;
    const value = xmlRpcAuthValue(login, password).replace(
      `${login}:`,
      `${encodeURIComponent(login)}${colon}`,
    );
    await this.callXmlRpc(qualified(this, name), [{}], { kind: 'value', value });
  },
);

Then('the answer is an XML-RPC error reply without data', function (this: PbxWorld) {
  const { method, outcome } = lastExchange(this);
  assert.ok(isErrorReply(outcome), `${method} answered ${describeOutcome(outcome)}, not an error reply`);
});

/** A module-log entry as the comparisons see it: who wrote it and how grave it is, not its text. */
function kindOf(entry: ModuleLogEntry): string {
  return `${entry.level}/${entry.source}`;
}

function countKinds(entries: readonly ModuleLogEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(kindOf(entry), (counts.get(kindOf(entry)) ?? 0) + 1);
  return counts;
}

function describeKinds(counts: Map<string, number>): string {
  return JSON.stringify(Object.fromEntries(counts));
}

/** The module-log entries written since the last XML-RPC call began. */
async function entriesOfLastCall(world: PbxWorld, control: PbxControl): Promise<ModuleLogEntry[]> {
  const exchange = lastExchange(world);
  assert.ok(exchange.logSeqBefore !== undefined, 'the module log was not watched during the call');
  return control.moduleLog({ since: exchange.logSeqBefore });
}

/**
 * Baselines for XMLRPC-ERR-COLLECTION and XMLRPC-AUTH-BEFORE-HANDLER: the entries one call writes,
 * noted by kind (level and source) so that per-call parts of messages (method, login, time) never
 * matter. `fault-free`: a signed-in call that returns its data; `refused`: a call with a wrong
 * password, before any fault is injected.
 */
Given(
  /^the module-log entries of a (fault-free|refused) "([^"]*)" call are noted$/,
  function (this: PbxWorld, which: 'fault-free' | 'refused', name: string) {
    return withControl(this, 'read the module log', async (control) => {
      this.watchModuleLog = true;
      const method = qualified(this, name);
      const auth =
        which === 'fault-free' ? { kind: 'valid' as const } : invalidLogin(this, 'a wrong password');
      const { outcome } = await this.callXmlRpc(method, [{}], auth);
      if (which === 'fault-free')
        assert.ok(hasData(outcome), `the fault-free call of ${method} answered ${describeOutcome(outcome)}`);
      else
        assert.ok(
          isErrorReply(outcome),
          `the refused call of ${method} answered ${describeOutcome(outcome)}`,
        );
      const entries = await entriesOfLastCall(this, control);
      this.memory.set(moduleLogOf(which, method), entries);
      this.evidence({
        exchange: `module log of the ${which} ${method} call`,
        details: { kinds: Object.fromEntries(countKinds(entries)) },
      });
    });
  },
);

function noted(world: PbxWorld, which: 'fault-free' | 'refused', method: string): ModuleLogEntry[] {
  const entries = world.memory.get(moduleLogOf(which, method));
  assert.ok(entries, `the module-log entries of a ${which} ${method} call were not noted`);
  return entries;
}

Then('the module log has an entry that the fault-free call did not produce', function (this: PbxWorld) {
  const { method } = lastExchange(this);
  return withControl(this, 'read the module log', async (control) => {
    const baseline = countKinds(noted(this, 'fault-free', method));
    const now = countKinds(await entriesOfLastCall(this, control));
    const extra = [...now].filter(([kind, count]) => count > (baseline.get(kind) ?? 0)).map(([kind]) => kind);
    assert.ok(
      extra.length > 0,
      `${method} wrote no module-log entry beyond those of the fault-free call: ${describeKinds(now)} against ${describeKinds(baseline)}`,
    );
    // The kinds of entry the module handler writes when collecting fails (XMLRPC-AUTH-BEFORE-HANDLER).
    this.memory.set(FAILING_HANDLER_KINDS, extra);
  });
});

Then(
  'the module log has no more entries of those kinds than the refused call wrote before the fault',
  function (this: PbxWorld) {
    const { method } = lastExchange(this);
    return withControl(this, 'read the module log', async (control) => {
      const kinds = this.memory.get(FAILING_HANDLER_KINDS);
      assert.ok(kinds, 'the kinds of entry the failing handler writes are not known yet');
      const baseline = countKinds(noted(this, 'refused', method));
      const now = countKinds(await entriesOfLastCall(this, control));
      const beyond = kinds.filter((kind) => (now.get(kind) ?? 0) > (baseline.get(kind) ?? 0));
      assert.deepEqual(
        beyond,
        [],
        `the call with failed credentials wrote entries the failing module handler writes: ${describeKinds(now)} against ${describeKinds(baseline)} of the refused call before the fault`,
      );
    });
  },
);

function hasData(outcome: XmlRpcOutcome): boolean {
  return outcome.kind === 'value' && isStruct(outcome.value) && typeof outcome.value['data'] === 'string';
}

const login = fc.stringMatching(/^[A-Za-z0-9_]{1,16}$/);
const password = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 });

Then(
  'for generated users the computed credentials sign in and those of a wrong password are refused without data \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const control = this.control;
    if (!control) return this.notVerifiable(this.noControlReason('create PBX users'));
    const fixture = this.pbx.xmlrpc;
    const method = this.methodName('GetMonitoringData');
    await assertLiveProperty(
      this,
      'computed credentials sign in',
      fc.asyncProperty(
        login.filter((l) => l !== fixture.login),
        password,
        async (user, secret) => {
          await control.setUsers([
            { login: fixture.login, password: fixture.password },
            { login: user, password: secret },
          ]);
          const good = await this.callXmlRpc(
            method,
            [{}],
            { kind: 'credentials', login: user, password: secret },
            { evidence: false },
          );
          assert.ok(hasData(good.outcome), `user ${user}: ${describeOutcome(good.outcome)}`);
          const data = (good.outcome as { value: Record<string, unknown> }).value['data'] as string;
          assert.equal(classifySnapshot(data), 'agent text', `user ${user}: data is not the agent text`);
          const bad = await this.callXmlRpc(
            method,
            [{}],
            { kind: 'credentials', login: user, password: `${secret}x` },
            { evidence: false },
          );
          assert.ok(
            isErrorReply(bad.outcome) && !hasData(bad.outcome),
            `user ${user}, wrong password: ${describeOutcome(bad.outcome)}`,
          );
        },
      ),
      runs,
    );
    return undefined;
  },
);

Then(
  'every generated invalid credentials value gets an XML-RPC error reply without data \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const fixture = this.pbx.xmlrpc;
    const valid = xmlRpcAuthValue(fixture.login, fixture.password);
    const hex = fc.stringMatching(/^[0-9a-f]{128}$/);
    const value = fc
      .oneof(
        hex.map((h) => `${fixture.login}:${h}`),
        fc.tuple(login, hex).map(([l, h]) => `${l}:${h}`),
        fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s)),
        fc.constant(fixture.login),
      )
      .filter((v) => v !== valid && v !== valid.replace(':', '%3A') && v !== '');
    const methods = fc.constantFrom(
      this.methodName('GetMonitoringData'),
      this.methodName('GetMonitoringDataXML'),
    );
    await assertLiveProperty(
      this,
      'invalid credentials are refused',
      fc.asyncProperty(value, methods, async (auth, method) => {
        const { outcome } = await this.callXmlRpc(
          method,
          [{}],
          { kind: 'value', value: auth },
          { evidence: false },
        );
        assert.ok(
          isErrorReply(outcome) && !hasData(outcome),
          `${method} with ${auth.slice(0, 40)}…: ${describeOutcome(outcome)}`,
        );
      }),
      runs,
    );
  },
);

Then(
  'every generated unknown method name gets the XML-RPC fault of an unknown method \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const known = new Set(
      ['GetMonitoringData', 'GetMonitoringDataXML', 'isActiveDirectoryEnabled'].map((c) =>
        this.methodName(c),
      ),
    );
    // `system.*` is left out: XML-RPC servers commonly offer introspection methods there.
    const name = fc
      .stringMatching(/^[A-Za-z][A-Za-z0-9_.]{0,30}$/)
      .filter((n) => !known.has(n) && !n.startsWith('system.'));
    const reference = await unknownMethodFault(this);
    await assertLiveProperty(
      this,
      'unknown methods get the unknown-method fault',
      fc.asyncProperty(name, async (method) => {
        const { outcome } = await this.callXmlRpc(method, [{}], { kind: 'valid' }, { evidence: false });
        assert.deepEqual(
          unknownMethodDeviation(outcome, method, reference),
          [],
          `${method}: ${describeOutcome(outcome)}, not the fault of ${reference.method}`,
        );
      }),
      runs,
    );
  },
);
