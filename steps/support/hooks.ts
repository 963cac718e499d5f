import { After, Before, setDefaultTimeout, setWorldConstructor } from '@cucumber/cucumber';
import { replayLimit } from '../../src/record/replay-limits.ts';
import { openEmbeddedTarget } from './embedded-target.ts';
import { FixtureError } from './fixture-error.ts';
import { releasePorts } from './port-holder.ts';
import { openRemoteTarget } from './remote-target.ts';
import { PbxWorld } from './world.ts';

setWorldConstructor(PbxWorld);

/** Property steps make up to a few dozen exchanges; every single exchange has its own real-time limit. */
setDefaultTimeout(120_000);

/**
 * Features whose scenarios drive a fleet controller through steps/fleet (fleet-context.ts), which
 * opens the controller and starts the PBXs of its sites itself: they never use the single PBX
 * every other scenario gets, so against the embedded simulator none is started for them (issue 31
 * §1: a PBX's start and close for each of their scenarios).
 */
const FLEET_FEATURES = /^features\/(?:fleet|events|mcp)\//;

// The certify features (features/certify/, tag @certify-plugin) prove certify-plugin with plug-ins
// of their own: they open no target, and never touch a `verify --target` (steps/certify/).
Before({ tags: 'not @certify-plugin' }, async function (this: PbxWorld, { pickle }) {
  const target = this.parameters.target;
  if (target === undefined) {
    if (FLEET_FEATURES.test(pickle.uri)) return;
    try {
      this.opened = await openEmbeddedTarget();
    } catch (error) {
      throw new FixtureError(`the harness cannot start the embedded simulator: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return;
  }
  this.opened = openRemoteTarget(target.description);
  // A replayed recording (the target file's `replay`, written by simulate --recording) cannot
  // follow a state the scenario sets: those clauses are the harness's limit (issue 29, item 9).
  if (target.description['replay'] !== undefined) {
    const limit = replayLimit(pickle.tags.map((tag) => tag.name));
    if (limit !== undefined) return this.notVerifiable(limit);
  }
  await this.control?.reset();
});

After(async function (this: PbxWorld) {
  try {
    await releasePorts(this.heldPorts);
    if (this.opened?.target.kind === 'remote') await this.control?.reset();
  } finally {
    for (const extra of this.extraTargets.splice(0)) await extra.close();
    await this.opened?.close();
  }
});
