import { spawnSync } from 'node:child_process';
import { loadScenarioFile } from '../../simulators/pbx/index.ts';
import { recordingStartOptions } from '../record/recording-start.ts';
import { type CertifyInput, EXTRA_RUN_CLAUSES, type ExtraRunClause } from './certify-types.ts';
import type { ScenarioBase } from './open-scenario.ts';
import type { PluginClauseId } from './plugin-clauses.ts';
import type { ScenarioSetup } from './scenario-catalog.ts';

/**
 * The first stage of a certification: which runs it makes. The run stage (certify-run.ts,
 * certify-run-extra.ts, certify-run-generated.ts) makes them, the judge stage (certify-judge.ts)
 * gives each PLUGIN clause its verdict, the report stage (certify-report.ts) writes it down.
 */

/** `{timeout}` in ordinary runs: above the slow-answer scenario's 7 s. */
export const TIMEOUT_PLACEHOLDER_S = 20;
/** `{timeout}` in the held-back run, and how much longer the answer is held back. */
export const HELD_BACK_TIMEOUT_S = 3;
export const HELD_BACK_EXTRA_MS = 6_000;
/** How long past its own timeout the held-back run may take before the harness ends it. */
export const HELD_BACK_GRACE_MS = 4_000;
export const GERMAN_LOCALE = 'de_DE.UTF-8';

/** One run on a scenario's fresh simulator: a catalog scenario, a scenario file or a recording. */
export interface PlannedScenario {
  name: string;
  description: string;
  setup: ScenarioSetup;
  /** The state (and replay) the simulator starts from, read when the run starts. */
  base?: () => ScenarioBase;
}

export interface CertifyPlan {
  /** In order: the catalog's scenarios, the `--scenario-file`, the `--recording`s. */
  scenarios: PlannedScenario[];
  /** The extra runs of the clauses that need them (PLUGIN-HELP-VERSION, PLUGIN-LOCALE-INDEPENDENT, PLUGIN-OWN-TIMEOUT). */
  extra: { helpAndVersion: boolean; locale: boolean; heldBack: boolean };
  /** `--runs`: how many generated states. */
  generatedRuns: number;
  /** The clauses the plan already knows no run can verify, with the reason. */
  notVerifiable: Map<PluginClauseId, string>;
}

/** Plans a certification's runs from its input; starts nothing. */
export function planRuns(input: CertifyInput): CertifyPlan {
  const scenarios: PlannedScenario[] = input.scenarios.map((s) => ({
    name: s.name,
    description: s.description,
    setup: s.setup,
  }));
  if (input.scenarioFile) {
    const file = input.scenarioFile;
    scenarios.push({
      name: file.name,
      description: file.description,
      setup: { kind: 'named', scenario: file.name },
      base: () => ({ state: loadScenarioFile(file.path, Date.now()) }),
    });
  }
  for (const recording of input.recordings ?? []) {
    scenarios.push({
      name: recording.name,
      description: recording.description,
      setup: { kind: 'named', scenario: recording.name },
      base: () => {
        const { scenario, replay } = recordingStartOptions(recording.path, input.cwd, 'recorded', Date.now());
        return { state: scenario, replay };
      },
    });
  }
  const notVerifiable = new Map<PluginClauseId, string>();
  const asked = (clause: ExtraRunClause): boolean =>
    typeof input.extraRuns === 'object' ? input.extraRuns.includes(clause) : input.extraRuns !== false;
  if (typeof input.extraRuns === 'object')
    for (const clause of EXTRA_RUN_CLAUSES)
      if (!asked(clause))
        notVerifiable.set(
          clause,
          `its extra runs were not asked for: this certification makes only those of ${input.extraRuns.join(', ') || 'no clause'}`,
        );
  const helpAndVersion = asked('PLUGIN-HELP-VERSION');
  const locale = asked('PLUGIN-LOCALE-INDEPENDENT') && localeInstalled(GERMAN_LOCALE);
  if (asked('PLUGIN-LOCALE-INDEPENDENT') && !locale)
    notVerifiable.set(
      'PLUGIN-LOCALE-INDEPENDENT',
      `the locale ${GERMAN_LOCALE} is not installed on this machine (locale -a does not list it)`,
    );
  const heldBack = asked('PLUGIN-OWN-TIMEOUT') && input.argv.some((word) => word.includes('{timeout}'));
  if (asked('PLUGIN-OWN-TIMEOUT') && !heldBack)
    notVerifiable.set(
      'PLUGIN-OWN-TIMEOUT',
      "the plug-in command has no {timeout} placeholder, so the harness cannot tell the plug-in's own timeout",
    );
  if (!input.expectations?.watches.length && !input.expectations?.scenarios.size)
    notVerifiable.set(
      'PLUGIN-STATE-AGREES-WITH-PBX',
      'the expectations name no watched services (`watches`) and no expected states',
    );
  if (!input.expectations?.measures.size)
    notVerifiable.set(
      'PLUGIN-FIGURES-AS-DECLARED',
      'the expectations declare no `measures` (which served figure each perfdata label measures)',
    );
  if (!input.expectations?.watches.some((w) => w.agree === 'exact'))
    notVerifiable.set('PLUGIN-STATE-EQUALS-PBX', 'the expectations watch no service with `agree: exact`');
  return {
    scenarios,
    extra: { helpAndVersion, locale, heldBack },
    generatedRuns: input.runs,
    notVerifiable,
  };
}

/**
 * The plug-in's own command without its arguments: the words up to the first option or
 * placeholder (an interpreter and its script stay together).
 */
export function bareCommand(argv: readonly string[]): string[] {
  const end = argv.findIndex((word, index) => index > 0 && (word.startsWith('-') || /\{[a-z]+\}/.test(word)));
  return argv.slice(0, end < 0 ? argv.length : end);
}

/** Whether the machine has a locale (`locale -a` lists `de_DE.utf8`). */
export function localeInstalled(name: string): boolean {
  const listed = spawnSync('locale', ['-a'], { encoding: 'utf8' });
  if (listed.status !== 0) return false;
  const wanted = name.toLowerCase().replace(/[-_.]/g, '');
  return listed.stdout.split('\n').some((line) => line.trim().toLowerCase().replace(/[-_.]/g, '') === wanted);
}
