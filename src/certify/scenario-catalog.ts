import { listScenarios } from '../../simulators/pbx/index.ts';

/** How a catalog scenario is set up on its fresh simulator (see open-scenario.ts). */
export type ScenarioSetup =
  | { kind: 'named'; scenario: string }
  | { kind: 'endpoint-down' }
  | { kind: 'host-unlisted' }
  | { kind: 'slow-answer'; delayMs: number }
  | { kind: 'extension' }
  | { kind: 'render-error' }
  | { kind: 'non-ascii-names' };

export interface CatalogScenario {
  name: string;
  description: string;
  setup: ScenarioSetup;
  /** A scenario whose state the plug-in must report the same as this one (the extension's plain twin). */
  twin?: string;
}

/**
 * How long the slow-answer scenario holds the answer back: close to, but under, the 8 s a
 * monitoring fetcher usually waits for a read, so a plug-in with the usual timeout still gets its
 * data (and one with a much shorter timeout does not).
 */
export const SLOW_ANSWER_DELAY_MS = 7_000;

/**
 * The built-in catalog: every named scenario of the simulator (simulators/pbx/scenarios/*.json,
 * `healthy` first; `values-unknown` carries the `-1` sentinels, `large` the large installation),
 * then the field situations a plug-in must survive.
 */
export function scenarioCatalog(): CatalogScenario[] {
  const named: CatalogScenario[] = listScenarios().map(({ name, description }) => ({
    name,
    description,
    setup: { kind: 'named', scenario: name },
  }));
  const field: CatalogScenario[] = [
    {
      name: 'endpoint-down',
      description: 'The data endpoint is down: connecting to {host}:{port} is refused.',
      setup: { kind: 'endpoint-down' },
    },
    {
      name: 'host-unlisted',
      description:
        "The monitoring-hosts list does not hold the plug-in's address: the connection is accepted and closed without a byte (MON-AUTH-UNLISTED-CLOSED).",
      setup: { kind: 'host-unlisted' },
    },
    {
      name: 'slow-answer',
      description: `healthy, but the answer starts ${SLOW_ANSWER_DELAY_MS / 1000} s after the connection (a harness proxy holds it back), close to the fetcher's usual 8 s read timeout.`,
      setup: { kind: 'slow-answer', delayMs: SLOW_ANSWER_DELAY_MS },
    },
    {
      name: 'extension',
      description:
        'healthy plus unknown extra sections and extra `key value` lines at the end of PBX sections; readers must ignore unknown entries and report the same state as for healthy.',
      setup: { kind: 'extension' },
      twin: 'healthy',
    },
    {
      name: 'render-error',
      description: 'The renderer fails: the whole answer is one `ERROR: <text>` line (fault render-error).',
      setup: { kind: 'render-error' },
    },
    {
      name: 'non-ascii-names',
      description: 'healthy with non-ASCII module, instance and peer names (umlauts, ß) in UTF-8.',
      setup: { kind: 'non-ascii-names' },
    },
  ];
  return [...named, ...field];
}
