/** Credentials of the data queries (authentication.feature, errors.feature). */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { classifySnapshot } from '../support/snapshot-format.ts';
import { withControl } from '../support/with-control.ts';
import type { PbxWorld, XmlRpcAuth } from '../support/world.ts';
import { describeOutcome, isErrorReply, lastExchange } from '../support/xmlrpc-answers.ts';
import { xmlRpcAuthValue } from '../support/xmlrpc-auth-value.ts';
import { isStruct, type XmlRpcOutcome } from '../support/xmlrpc-call.ts';

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

Then('the module log has new entries', function (this: PbxWorld) {
  const exchange = lastExchange(this);
  return withControl(this, 'read the module log', async (control) => {
    assert.ok(exchange.logSeqBefore !== undefined, 'the module log was not watched during the call');
    const entries = await control.moduleLog(exchange.logSeqBefore);
    assert.ok(entries.length > 0, `no module-log entry after ${exchange.method}`);
    this.memory.set(
      'handlerLogMessages',
      entries.map((e) => e.message),
    );
  });
});

Then('the module log has no new entries from the module handler', function (this: PbxWorld) {
  const exchange = lastExchange(this);
  return withControl(this, 'read the module log', async (control) => {
    assert.ok(exchange.logSeqBefore !== undefined, 'the module log was not watched during the call');
    const handlerMessages = new Set(this.memory.get('handlerLogMessages') as string[]);
    const entries = await control.moduleLog(exchange.logSeqBefore);
    const fromHandler = entries.filter((e) => handlerMessages.has(e.message));
    assert.deepEqual(
      fromHandler,
      [],
      'the module handler wrote to the log for a call with failed credentials',
    );
  });
});

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
  'every generated unknown method name gets an XML-RPC fault \\({int} runs)',
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
    await assertLiveProperty(
      this,
      'unknown methods get a fault',
      fc.asyncProperty(name, async (method) => {
        const { outcome } = await this.callXmlRpc(method, [{}], { kind: 'valid' }, { evidence: false });
        assert.equal(outcome.kind, 'fault', `${method}: ${describeOutcome(outcome)}`);
      }),
      runs,
    );
  },
);
