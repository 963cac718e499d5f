import { After } from '@cucumber/cucumber';
import type { PbxWorld } from '../support/world.ts';

/** Closes the scenario's fleet target (the embedded controller and its PBXs) when one was opened. */
After(async function (this: PbxWorld) {
  const fleet = this.fleet;
  this.fleet = undefined;
  await fleet?.close();
});
