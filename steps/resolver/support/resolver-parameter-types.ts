import { defineParameterType } from '@cucumber/cucumber';
import { MAIN } from './resolver-scenario.ts';

/** `{endpoint}`: `the customer endpoint` (the scenario's first one) or `the customer endpoint "B"`. */
defineParameterType({
  name: 'endpoint',
  regexp: /the customer endpoint(?: "[^"]+")?/,
  transformer: (text: string): string => /"([^"]+)"/.exec(text)?.[1] ?? MAIN,
});

/** `{provider}`: `the provider` (the scenario's first one) or `the provider "second"`. */
defineParameterType({
  name: 'provider',
  regexp: /the provider(?: "[^"]+")?/,
  transformer: (text: string): string => /"([^"]+)"/.exec(text)?.[1] ?? MAIN,
});
