import type { Pickle } from '@cucumber/messages';

/**
 * The scenarios a `verify` run in this process selected, published by the runner before the first
 * hook runs (run-suite.ts), so that support code may prepare what several of them need at once
 * (issue 31 §1: the features' certifications start in the background while other features run).
 * Only a run in this process publishes: a parallel worker sees none, and prepares nothing ahead.
 */
export interface SelectedScenarios {
  /** The selected scenarios, in the order they will run. */
  pickles: readonly Pickle[];
  /** Whether the run is against the embedded simulator (no `--target`). */
  embedded: boolean;
}

let selected: SelectedScenarios = { pickles: [], embedded: false };

export function publishSelectedScenarios(scenarios: SelectedScenarios): void {
  selected = scenarios;
}

export function selectedScenarios(): SelectedScenarios {
  return selected;
}
