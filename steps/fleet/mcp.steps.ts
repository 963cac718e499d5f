/** The MCP tools through the official SDK client (features/mcp/tools.feature). */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import type { PbxWorld } from '../support/world.ts';
import { asciiText } from './support/ascii-text.ts';
import { isEpochMs } from './support/epoch-ms.ts';
import type { FleetContext } from './support/fleet-context.ts';
import { fleetSchemaErrors } from './support/fleet-schemas.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { McpTokenRole } from './support/fleet-target.ts';
import { callRefused, callTool, type ToolOutcome, toolFailed } from './support/mcp-client.ts';
import { codePoints } from './support/text-limit.ts';
import {
  entryEvents,
  entryOf,
  eventsMatchProblem,
  mcpSiteEntries,
  sameDataProblem,
} from './support/tool-result.ts';

/** Calls a tool as the partner's assistant and keeps the outcome for the Then steps. */
export async function callAsAssistant(
  world: PbxWorld,
  fleet: FleetContext,
  token: McpTokenRole,
  tool: string,
  args: Record<string, unknown>,
  evidence = true,
): Promise<ToolOutcome> {
  const outcome = await callTool(fleet.mcpUrl(), await fleet.mcpToken(token), tool, args);
  fleet.kept.set('tool', outcome);
  if (evidence) {
    world.evidence({
      exchange: `MCP tools/call ${tool} with the ${token} token`,
      request: JSON.stringify(args),
      response: JSON.stringify(outcome.kind === 'result' ? outcome.result : outcome, null, 1),
    });
  }
  return outcome;
}

export function lastOutcome(fleet: FleetContext): ToolOutcome {
  const outcome = fleet.kept.get('tool') as ToolOutcome | undefined;
  assert.ok(outcome, 'no tool was called');
  return outcome;
}

/** The value of a successful tool call as an object. */
function resultObject(fleet: FleetContext): Record<string, unknown> {
  const outcome = lastOutcome(fleet);
  assert.ok(outcome.kind === 'result' && !outcome.isError, 'the tool call failed');
  assert.equal(typeof outcome.value, 'object', 'the tool result holds no JSON object');
  return outcome.value as Record<string, unknown>;
}

When(
  "the partner's assistant calls {string} with {mcpToken}",
  fleetStep(async function (this: PbxWorld, fleet, tool: string, token: McpTokenRole) {
    await callAsAssistant(this, fleet, token, tool, {});
  }),
);

When(
  "the partner's assistant calls {string} without an attentionId with {mcpToken}",
  fleetStep(async function (this: PbxWorld, fleet, tool: string, token: McpTokenRole) {
    await callAsAssistant(this, fleet, token, tool, { comment: 'ohne Meldungsnummer' });
  }),
);

When(
  "the partner's assistant acknowledges {string} through MCP with {mcpToken}",
  fleetStep(async function (this: PbxWorld, fleet, label: string, token: McpTokenRole) {
    const attentionId = await fleet.itemId(label);
    await callAsAssistant(this, fleet, token, 'fleet_attention_acknowledge', { attentionId });
  }),
);

When(
  "the partner's assistant acknowledges {string} through MCP with a comment of {int} ASCII characters",
  fleetStep(async function (this: PbxWorld, fleet, label: string, length: number) {
    const attentionId = await fleet.itemId(label);
    const comment = asciiText(length, 3);
    await callAsAssistant(this, fleet, 'readWrite', 'fleet_attention_acknowledge', { attentionId, comment });
  }),
);

Then(
  'the tool call succeeds',
  fleetStep(async (fleet) => {
    const outcome = lastOutcome(fleet);
    assert.ok(!toolFailed(outcome), `the tool call failed: ${JSON.stringify(outcome).slice(0, 500)}`);
  }),
);

Then(
  'the tool call fails',
  fleetStep(async (fleet) => {
    const outcome = lastOutcome(fleet);
    assert.ok(toolFailed(outcome), `the tool call succeeded: ${JSON.stringify(outcome).slice(0, 500)}`);
  }),
);

Then(
  'the tool call is refused as a call, not turned away for its token',
  fleetStep(async (fleet) => {
    const outcome = lastOutcome(fleet);
    assert.ok(toolFailed(outcome), `the tool call succeeded: ${JSON.stringify(outcome).slice(0, 500)}`);
    // MCP-UNSPEC-FAILED-RESULT leaves the shape open, but a 401 or a failure to open the session
    // says the token was not accepted at all, which is not the refusal the level rules ask for.
    assert.ok(
      callRefused(outcome),
      `the call was not refused by the tool but failed ${outcome.kind === 'refused' ? `while ${outcome.stage === 'connect' ? 'opening the session' : 'calling'} (${outcome.via} ${outcome.code})` : ''}: ${JSON.stringify(outcome).slice(0, 500)}`,
    );
  }),
);

Then(
  "the tool result lists exactly the partner's sites that have findings",
  fleetStep(async (fleet) => {
    const entries = mcpSiteEntries(resultObject(fleet));
    const rest = await fleet.siteList('partner');
    const expected = rest.filter((s) => s.attention.length > 0).map((s) => s.id);
    const listed = rest.filter((s) => entryOf(entries, s)).map((s) => s.id);
    assert.deepEqual([...listed].sort(), [...expected].sort(), 'the sites with findings');
    assert.equal(entries.length, expected.length, 'fleet_attention lists other entries too');
  }),
);

Then(
  'every open message in the tool result has attentionId, module, subject, description, severity, firstAt, lastAt and occurrences',
  fleetStep(async (fleet) => {
    // Each event must be an open REST item of the same caller (the partner's tokens), field by field.
    const problem = eventsMatchProblem(mcpSiteEntries(resultObject(fleet)), await fleet.siteList('partner'));
    assert.equal(problem, null, problem ?? '');
  }),
);

Then(
  "the tool result has the same sites with findings and the same open messages as the partner's REST site list",
  fleetStep(async (fleet) => {
    const problem = sameDataProblem(mcpSiteEntries(resultObject(fleet)), await fleet.siteList('partner'));
    assert.equal(problem, null, problem ?? '');
  }),
);

Then(
  'the tool result lists {string} among the open messages',
  fleetStep(async (fleet, label: string) => {
    const message = fleet.message(label);
    const id = message.id ?? (await fleet.itemId(label));
    const events = mcpSiteEntries(resultObject(fleet)).flatMap(entryEvents);
    const found = events.find((e) => e['attentionId'] === id);
    assert.ok(found, `no open message has the attentionId ${id} of "${label}"`);
    assert.equal(found['subject'], message.shown?.subject ?? message.subject, 'subject');
  }),
);

Then(
  'the tool result shows {string} with the description it was sent with',
  fleetStep(async (fleet, label: string) => {
    const message = fleet.message(label);
    const id = message.id ?? (await fleet.itemId(label));
    const events = mcpSiteEntries(resultObject(fleet)).flatMap(entryEvents);
    const found = events.find((e) => e['attentionId'] === id);
    assert.ok(found, `no open message has the attentionId ${id} of "${label}"`);
    assert.equal(found['description'], message.description, 'description');
  }),
);

Then(
  'the tool result has outcome {string}, the attentionId and siteId of {string}, alreadyAcknowledged false and an acknowledgedAt',
  fleetStep(async (fleet, outcome: string, label: string) => {
    const value = resultObject(fleet);
    const errors = fleetSchemaErrors('acknowledge result', value);
    assert.equal(errors, null, `the tool result does not match the acknowledge result schema: ${errors}`);
    const message = fleet.message(label);
    assert.equal(value['outcome'], outcome, 'outcome');
    assert.equal(value['attentionId'], message.id, 'attentionId');
    assert.equal(value['siteId'], message.siteId, 'siteId');
    assert.equal(value['alreadyAcknowledged'], false, 'alreadyAcknowledged');
    assert.ok(
      isEpochMs(value['acknowledgedAt']),
      `acknowledgedAt is ${JSON.stringify(value['acknowledgedAt'])}`,
    );
  }),
);

Then(
  'the tool result has outcome {string} and alreadyAcknowledged {word}',
  fleetStep(async (fleet, outcome: string, already: string) => {
    const value = resultObject(fleet);
    assert.equal(value['outcome'], outcome, 'outcome');
    assert.equal(value['alreadyAcknowledged'], already === 'true', 'alreadyAcknowledged');
  }),
);

Then(
  'generated comments through MCP are accepted up to 1000 characters and fail beyond without acknowledging \\({int} runs)',
  fleetStep(async function (this: PbxWorld, fleet, runs: number) {
    const siteId = await fleet.siteId('own');
    await fleet.requireRaising(siteId);
    // FLEET-UNSPEC-CHARACTER-COUNT: only comments on the same side of 1000 in both units are judged.
    const comment = fc.oneof(
      fc.integer({ min: 995, max: 1005 }).map((n) => asciiText(n, n)),
      fc.string({ unit: 'grapheme', maxLength: 1000 }).filter((s) => s.length <= 1000),
      fc.string({ unit: 'grapheme', minLength: 1001, maxLength: 1400 }).filter((s) => codePoints(s) > 1000),
    );
    let run = 0;
    await assertLiveProperty(
      this,
      'MCP comments up to 1000 characters pass, longer ones fail',
      fc.asyncProperty(comment, async (text) => {
        run++;
        const label = `mcp comment ${run}`;
        await fleet.raise(label, siteId, {
          module: fleet.moduleName(`MCP Kommentar ${run}`),
          subject: 'Bitte prüfen',
          severity: 'INFO',
        });
        const attentionId = await fleet.itemId(label);
        const outcome = await callAsAssistant(
          this,
          fleet,
          'readWrite',
          'fleet_attention_acknowledge',
          { attentionId, comment: text },
          false,
        );
        const open = (await fleet.findItem('partner', label, { evidence: false })) !== undefined;
        if (text.length <= 1000) {
          assert.ok(
            !toolFailed(outcome),
            `a comment of ${text.length} UTF-16 units failed: ${JSON.stringify(outcome).slice(0, 300)}`,
          );
          assert.ok(!open, 'the message is still open');
        } else {
          assert.ok(toolFailed(outcome), `a comment of ${codePoints(text)} code points was accepted`);
          assert.ok(open, 'the message was acknowledged');
        }
      }),
      runs,
    );
  }),
);
