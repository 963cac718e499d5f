/**
 * The MCP tools through an MCP client the project did not write (features/mcp/external-client.feature):
 * the MCP Inspector CLI, run by npx only with PBX_CONFORMANCE_EXTERNAL_MCP=1.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { PbxWorld } from '../support/world.ts';
import {
  EXTERNAL_MCP_TIMEOUT_MS,
  externalClientDisabled,
  type InspectorRun,
  inspectorOutcome,
  runInspector,
} from './support/external-mcp-client.ts';
import type { FleetContext } from './support/fleet-context.ts';
import { notVerifiable } from './support/fleet-not-verifiable.ts';
import { fleetStep } from './support/fleet-step.ts';
import type { McpTokenRole } from './support/fleet-target.ts';

/** Room for npx to fetch the client on the first run, beyond the run's own limit. */
const STEP_TIMEOUT_MS = EXTERNAL_MCP_TIMEOUT_MS + 30_000;

async function inspect(
  world: PbxWorld,
  fleet: FleetContext,
  token: McpTokenRole,
  args: string[],
): Promise<InspectorRun> {
  const disabled = externalClientDisabled();
  if (disabled) notVerifiable(disabled);
  const run = await runInspector(fleet.mcpUrl(), await fleet.mcpToken(token), args);
  world.evidence({
    exchange: `external MCP client: ${args.join(' ')}`,
    request: run.command,
    response: `exit ${run.exitCode}\n${run.stdout}\n${run.stderr}`,
  });
  return run;
}

When(
  'the external MCP client lists the tools with {mcpToken}',
  { timeout: STEP_TIMEOUT_MS },
  fleetStep(async function (this: PbxWorld, fleet, token: McpTokenRole) {
    const run = await inspect(this, fleet, token, ['--method', 'tools/list']);
    assert.equal(
      run.exitCode,
      0,
      `the external client ended with ${run.exitCode}: ${run.stderr.slice(-500)}`,
    );
    fleet.kept.set('externalTools', JSON.parse(run.stdout));
  }),
);

Then(
  "the external client's tool list names {string} and {string}",
  fleetStep(async (fleet, first: string, second: string) => {
    const listed = fleet.kept.get('externalTools') as { tools?: { name?: unknown }[] } | undefined;
    const names = (listed?.tools ?? []).map((t) => t.name);
    for (const name of [first, second]) assert.ok(names.includes(name), `the tool list has no ${name}`);
  }),
);

When(
  'the external MCP client calls {string} with {mcpToken}',
  { timeout: STEP_TIMEOUT_MS },
  fleetStep(async function (this: PbxWorld, fleet, tool: string, token: McpTokenRole) {
    const run = await inspect(this, fleet, token, ['--method', 'tools/call', '--tool-name', tool]);
    fleet.kept.set('tool', inspectorOutcome(run));
  }),
);

When(
  'the external MCP client acknowledges {string} with {mcpToken}',
  { timeout: STEP_TIMEOUT_MS },
  fleetStep(async function (this: PbxWorld, fleet, label: string, token: McpTokenRole) {
    const id = await fleet.itemId(label);
    const args = [
      '--method',
      'tools/call',
      '--tool-name',
      'fleet_attention_acknowledge',
      '--tool-arg',
      `attentionId=${id}`,
    ];
    const run = await inspect(this, fleet, token, args);
    fleet.kept.set('tool', inspectorOutcome(run));
  }),
);
