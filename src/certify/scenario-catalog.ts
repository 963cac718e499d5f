import { listScenarios } from '../../simulators/pbx/index.ts';

/** How a catalog scenario is set up on its fresh simulator (see open-scenario.ts). */
export type ScenarioSetup =
  | { kind: 'named'; scenario: string }
  | { kind: 'endpoint-down' }
  | { kind: 'host-unlisted' }
  | { kind: 'slow-answer'; delayMs: number }
  | { kind: 'extension' }
  | { kind: 'render-error' }
  | { kind: 'sections-missing' }
  | { kind: 'non-ascii-names' };

export interface CatalogScenario {
  name: string;
  description: string;
  /** What the scenario is for: what a plug-in must get right there (`--list-scenarios`). */
  purpose: string;
  setup: ScenarioSetup;
  /** A scenario whose state the plug-in must report the same as this one (the extension's plain twin). */
  twin?: string;
}

/** What each named scenario of the simulator is for, in a plug-in's certification. */
const PURPOSES: Record<string, string> = {
  healthy:
    'every section with known values: the plug-in must report a state other than UNKNOWN (PLUGIN-KNOWN-WHEN-SERVED)',
  'healthy-extended':
    'healthy with the newer content of every section: the plug-in must read it like healthy',
  'all-phones-offline': 'no phone online: a phones plug-in must see it (the PBX itself says CRITICAL)',
  'backup-failed':
    "an older target's newest run failed, another target succeeded later: judge each target by its own newest run",
  'backup-recovered':
    'the newest run of a target succeeded after an older failure: the PBX says OK, a plug-in judging an older run is over-severe (PLUGIN-STATE-EQUALS-PBX)',
  'backup-failed-latest':
    'the newest run of all failed: a plug-in that looks only at the newest run passes this one but not backup-failed',
  large: 'a large installation (400 peers, 150 backup targets): no size limit, no slowness',
  'raid-degraded': 'a degraded RAID: raid_diagnosis is not HEALTHY',
  'ram-critical': 'memory almost exhausted (the PBX says CRITICAL)',
  'ram-warning': 'memory running low (the PBX says WARNING)',
  'trunk-unregistered': 'a SIP trunk is not registered',
  unlicensed: 'no module licence: the data endpoint is stopped and {port} refuses',
  'update-major': 'a major PBX update is available',
  'update-minor': 'a minor PBX update is available',
  'values-unknown':
    'every figure is the -1 sentinel ("cannot be determined"): a plug-in should print U or leave the figure out, never a count of -1',
};

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
    purpose: PURPOSES[name] ?? description,
    setup: { kind: 'named', scenario: name },
  }));
  const field: CatalogScenario[] = [
    {
      name: 'endpoint-down',
      purpose:
        'a refused port: the plug-in must say so (CRITICAL or UNKNOWN) and print no figures as if it had data',
      description: 'The data endpoint is down: connecting to {host}:{port} is refused.',
      setup: { kind: 'endpoint-down' },
    },
    {
      name: 'host-unlisted',
      purpose: 'a connection closed without a byte: no data, so no figures and no OK',
      description:
        "The monitoring-hosts list does not hold the plug-in's address: the connection is accepted and closed without a byte (MON-AUTH-UNLISTED-CLOSED).",
      setup: { kind: 'host-unlisted' },
    },
    {
      name: 'slow-answer',
      purpose: 'an answer close to the usual read timeout: the plug-in must still read it',
      description: `healthy, but the answer starts ${SLOW_ANSWER_DELAY_MS / 1000} s after the connection (a harness proxy holds it back), close to the fetcher's usual 8 s read timeout.`,
      setup: { kind: 'slow-answer', delayMs: SLOW_ANSWER_DELAY_MS },
    },
    {
      name: 'extension',
      purpose:
        'unknown sections and keys: the plug-in must ignore them and report as on healthy (PLUGIN-IGNORES-UNKNOWN)',
      description:
        'healthy plus unknown extra sections and extra `key value` lines at the end of PBX sections; readers must ignore unknown entries and report the same state as for healthy.',
      setup: { kind: 'extension' },
      twin: 'healthy',
    },
    {
      name: 'render-error',
      purpose:
        'an ERROR line instead of data: the plug-in must not invent figures (PLUGIN-FIGURES-FOLLOW-SERVED)',
      description: 'The renderer fails: the whole answer is one `ERROR: <text>` line (fault render-error).',
      setup: { kind: 'render-error' },
    },
    {
      name: 'sections-missing',
      purpose:
        'an answer without the sections the plug-in reads: no data, so UNKNOWN (or CRITICAL), never OK (PLUGIN-NOT-OK-WITHOUT-DATA)',
      description:
        'The PBX answers with its banner <<<monitor_agent>>> only: every other section (the PBX sections, <<<local>>>, the Linux sections) is left out (a harness proxy drops them).',
      setup: { kind: 'sections-missing' },
    },
    {
      name: 'non-ascii-names',
      purpose: 'UTF-8 names: the plug-in must read them without crashing',
      description: 'healthy with non-ASCII module, instance and peer names (umlauts, ß) in UTF-8.',
      setup: { kind: 'non-ascii-names' },
    },
  ];
  return [...named, ...field];
}
