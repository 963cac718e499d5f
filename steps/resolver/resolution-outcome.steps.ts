/**
 * What the PBX made of the answers: the resolution result, the caller-ID result and the address
 * book, read through the PBX control plane (the `control` clauses).
 */
import assert from 'node:assert/strict';
import { type DataTable, Then } from '@cucumber/cucumber';
import type { PbxWorld } from '../support/world.ts';
import { evaluationTraces } from './support/body-evaluation.ts';
import { everyNumberForm } from './support/expected-number.ts';
import type { CallerIdResult, ProviderAttemptView, ResolverControl } from './support/resolver-control.ts';
import { resolverScenario } from './support/resolver-scenario-of.ts';
import { withResolver } from './support/with-resolver.ts';

async function callerId(world: PbxWorld, control: ResolverControl): Promise<CallerIdResult> {
  const result = await control.resolverCallerId();
  world.evidence({ exchange: 'GET /resolver/caller-id', response: JSON.stringify(result, null, 1) });
  assert.ok(result, 'the PBX shows no caller-ID result');
  return result;
}

/** The provider query of the last resolution (the scenarios that read it have one provider). */
function attempt(world: PbxWorld): ProviderAttemptView {
  const { answer } = resolverScenario(world).lastRun();
  const found = answer.attempts[0];
  assert.ok(found, `the resolution queried no provider: ${JSON.stringify(answer)}`);
  return found;
}

function namesOf(result: CallerIdResult): string[] {
  return result.name ? [result.name.firstName, result.name.lastName, result.name.company] : [];
}

Then('the caller ID shows the name {string}', function (this: PbxWorld, name: string) {
  return withResolver(this, 'read the caller-ID result', async (control) => {
    const result = await callerId(this, control);
    assert.equal(result.state, 'resolved', `the caller ID is ${result.state}`);
    assert.ok(
      namesOf(result).includes(name),
      `the caller ID holds ${JSON.stringify(result.name)}, not ${name}`,
    );
  });
});

Then('the caller ID of the call shows the last name {string}', function (this: PbxWorld, lastName: string) {
  return withResolver(this, 'read the caller-ID result', async (control) => {
    const result = await callerId(this, control);
    assert.equal(result.state, 'resolved', `the caller ID is ${result.state}`);
    assert.equal(result.name?.lastName, lastName);
  });
});

Then(
  'the caller ID of the call has the first name {string}, the last name {string} and the company {string}',
  function (this: PbxWorld, firstName: string, lastName: string, company: string) {
    return withResolver(this, 'read the caller-ID result', async (control) => {
      const result = await callerId(this, control);
      assert.equal(result.state, 'resolved', `the caller ID is ${result.state}`);
      assert.deepEqual(
        { firstName: result.name?.firstName, lastName: result.name?.lastName, company: result.name?.company },
        { firstName, lastName, company },
      );
    });
  },
);

Then('the lookup failed', function (this: PbxWorld) {
  return withResolver(this, 'read the caller-ID result', async (control) => {
    const { answer, trigger } = resolverScenario(this).lastRun();
    assert.equal(answer.state, 'failed', `the resolution ended ${answer.state}`);
    if (trigger === 'call') {
      const result = await callerId(this, control);
      assert.equal(result.state, 'failed', `the caller ID is ${result.state}`);
      assert.equal(result.name, null, 'the caller ID shows a name');
    }
  });
});

Then('the lookup gave no result', function (this: PbxWorld) {
  return withResolver(this, 'read the caller-ID result', async (control) => {
    const { answer, trigger } = resolverScenario(this).lastRun();
    assert.equal(answer.state, 'no-result', `the resolution ended ${answer.state}`);
    if (trigger === 'call') {
      const result = await callerId(this, control);
      assert.equal(result.state, 'no-result', `the caller ID is ${result.state}`);
      assert.equal(result.name, null, 'the caller ID shows a name');
    }
  });
});

Then('the index variables are {names}', function (this: PbxWorld, expected: string[]) {
  assert.deepEqual(attempt(this).variables, expected);
});

Then('the index variables are, in order:', function (this: PbxWorld, table: DataTable) {
  assert.deepEqual(
    attempt(this).variables,
    table.raw().map((row) => row[0] ?? ''),
  );
});

/** `A€` → `U+0041 U+20AC`. */
function codePoints(text: string): string {
  return [...text]
    .map((c) => `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`)
    .join(' ');
}

Then('the code points of the only index variable are {string}', function (this: PbxWorld, expected: string) {
  const { variables } = attempt(this);
  assert.equal(variables.length, 1, `index variables ${JSON.stringify(variables)}`);
  assert.equal(codePoints(variables[0] as string), expected.trim().toUpperCase().replace(/\s+/g, ' '));
});

Then('the UI integration receives {string}', function (this: PbxWorld, value: string) {
  const { answer } = resolverScenario(this).lastRun();
  assert.ok(
    Object.values(answer.uiValues).includes(value),
    `the UI integration got ${JSON.stringify(answer.uiValues)}`,
  );
});

Then('the UI integration does not receive {string}', function (this: PbxWorld, value: string) {
  const { answer } = resolverScenario(this).lastRun();
  assert.ok(
    !Object.values(answer.uiValues).includes(value),
    `the UI integration got ${JSON.stringify(answer.uiValues)}`,
  );
});

Then('the PBX reports a timeout of {int} ms for the lookup', function (this: PbxWorld, timeoutMs: number) {
  const { timing } = attempt(this);
  assert.ok(timing, 'the PBX reports no timing for the lookup');
  assert.equal(timing.timeoutMs, timeoutMs);
});

Then(
  'the PBX did not evaluate the body: no parser hit, index variable, name or UI value',
  function (this: PbxWorld) {
    return withResolver(this, 'read the caller-ID result and the search log', async (control, scenario) => {
      const { answer, trigger } = scenario.lastRun();
      assert.ok(answer.attempts.length > 0, `the resolution queried no provider: ${JSON.stringify(answer)}`);
      const lines = await scenario.lastLog(control);
      assert.deepEqual(evaluationTraces(answer, lines), [], 'the PBX evaluated the body of a non-2xx answer');
      if (trigger === 'call') {
        const result = await callerId(this, control);
        assert.equal(result.name, null, `the caller ID shows ${JSON.stringify(result.name)}`);
        assert.deepEqual(result.uiValues, {}, 'the caller ID carries UI values');
      }
    });
  },
);

Then(
  'the PBX address book has an entry for the number {string} with the last name {string}',
  function (this: PbxWorld, number: string, lastName: string) {
    return withResolver(this, 'read the address book', async (control) => {
      const { countryCode } = await control.resolverSettings();
      const forms = new Set(everyNumberForm(number, countryCode));
      const book = await control.resolverAddressBook();
      this.evidence({ exchange: 'GET /resolver/address-book', response: JSON.stringify(book, null, 1) });
      const entry = book.find((e) => forms.has(e.number));
      assert.ok(entry, `no entry for any form of ${number} (${[...forms].join(', ')})`);
      assert.equal(entry.lastName, lastName);
    });
  },
);

Then('the PBX address book is still empty', function (this: PbxWorld) {
  return withResolver(this, 'read the address book', async (control) => {
    assert.deepEqual(await control.resolverAddressBook(), []);
  });
});
