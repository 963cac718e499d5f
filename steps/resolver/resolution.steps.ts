/** Triggers of a resolution (web-resolver.md, "What the service does"), through the PBX control plane. */
import { When } from '@cucumber/cucumber';
import type { PbxWorld } from '../support/world.ts';
import { withResolver } from './support/with-resolver.ts';

When('the PBX resolves the caller number {string}', function (this: PbxWorld, number: string) {
  return withResolver(this, 'resolve a caller number', (control, scenario) =>
    scenario.resolve(control, number, 'call'),
  );
});

When('the PBX resolves the caller number {string} again', function (this: PbxWorld, number: string) {
  return withResolver(this, 'resolve a caller number', (control, scenario) =>
    scenario.resolve(control, number, 'call'),
  );
});

When(
  'the operator runs the settings test of {provider} with the number {string}',
  function (this: PbxWorld, providerId: string, number: string) {
    return withResolver(this, 'run the settings test', (control, scenario) =>
      scenario.resolve(control, number, 'settings-test', { providerId }),
    );
  },
);

When('the UI integration queries the number {string}', function (this: PbxWorld, number: string) {
  return withResolver(this, 'query through the UI integration', (control, scenario) =>
    scenario.resolve(control, number, 'ui-integration'),
  );
});
