import { After } from '@cucumber/cucumber';
import type { PbxWorld } from '../../support/world.ts';

/** Closes the scenario's reference endpoints when it started any. */
After(async function (this: PbxWorld) {
  const scenario = this.resolver;
  this.resolver = undefined;
  await scenario?.close();
});
