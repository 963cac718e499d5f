import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { judgeMkp, type MkpScenarioRun, type RuleVerdict } from '../../../src/certify/mkp/judge-mkp.ts';
import { APPLICABLE_PLUGIN_CLAUSES, MKP_PLUGIN_RULES } from '../../../src/certify/mkp/mkp-rules.ts';
import {
  pythonProblem,
  type RunnerOutcome,
  runAgentPlugins,
} from '../../../src/certify/mkp/run-agent-plugins.ts';

const noPython = pythonProblem() ?? false;

/** A small agent-based plug-in that keeps every rule: one service per pool, upper levels on use. */
const GOOD = `
from cmk.agent_based.v2 import AgentSection, CheckPlugin, Metric, Result, Service, State, check_levels


def parse_demo(string_table):
    return {line[0]: line[1] for line in string_table if len(line) == 2}


def discover_demo(section):
    for key in section:
        if key.startswith("pool_"):
            yield Service(item=key[5:])


def check_demo(item, section):
    value = section.get(f"pool_{item}")
    if value is None:
        return
    used = float(value)
    yield from check_levels(
        used, levels_upper=("fixed", (80.0, 90.0)), metric_name="pool_used", label="Used", render_func=lambda v: f"{v:.0f}%"
    )


agent_section_demo = AgentSection(name="demo", parse_function=parse_demo)
check_plugin_demo = CheckPlugin(
    name="demo", service_name="Pool %s", discovery_function=discover_demo, check_function=check_demo
)
`;

const TEXTS: Record<string, string> = {
  healthy: '<<<demo>>>\npool_a 40\npool_b 85\n',
  extension: '<<<demo>>>\npool_a 40\npool_b 85\nzz_unknown_key 7\n<<<zz_unknown_section>>>\nfoo bar\n',
  busy: '<<<demo>>>\npool_a 95\npool_b 85\n',
  'slow-answer': '<<<demo>>>\npool_a 40\npool_b 85\n',
};

const roots: string[] = [];
after(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

/** The plug-in with `replace` swapped for `by` (each failing example breaks one rule). */
function variant(replace: string, by: string): string {
  assert.ok(GOOD.includes(replace), replace);
  return GOOD.replace(replace, by);
}

async function judge(source: string, texts = TEXTS): Promise<RuleVerdict[]> {
  const root = await mkdtemp(join(tmpdir(), 'pbx-mkp-rules-'));
  roots.push(root);
  const pluginsDir = join(root, 'cmk_addons_plugins');
  await mkdir(join(pluginsDir, 'demo', 'agent_based'), { recursive: true });
  await writeFile(join(pluginsDir, 'demo', 'agent_based', 'demo.py'), source);
  const probes = { malformed: true, missingItem: true, discoverTwice: true };
  let load: RunnerOutcome['load'] | null = null;
  const runs: MkpScenarioRun[] = [];
  for (const [scenario, text] of Object.entries(texts)) {
    const outcome = await runAgentPlugins({
      pluginsDir,
      now: 1_700_000_000,
      texts: [{ label: scenario, text }],
      probes,
      timeoutMs: 30_000,
    });
    load ??= outcome.load;
    runs.push({ scenario, description: scenario, servedText: text, run: outcome.runs[0] ?? null });
  }
  return judgeMkp({ packageProblems: [], load, runs, sameState: [['healthy', 'slow-answer']] });
}

function verdict(verdicts: RuleVerdict[], id: string): RuleVerdict {
  const found = verdicts.find((v) => v.id === id);
  assert.ok(found, `no verdict for ${id}`);
  return found;
}

function assertFails(verdicts: RuleVerdict[], id: string, reason: RegExp): void {
  const v = verdict(verdicts, id);
  assert.equal(v.verdict, 'fail', `${id} should fail: ${JSON.stringify(v.findings.slice(0, 3))}`);
  assert.match(v.reasons.join('\n'), reason);
}

test('every project rule and applicable PLUGIN clause gets one verdict, and all pass for a plug-in that keeps them', {
  skip: noPython,
}, async () => {
  const verdicts = await judge(GOOD);
  const ids = [...MKP_PLUGIN_RULES.map((r) => r.id), ...APPLICABLE_PLUGIN_CLAUSES.keys()];
  assert.deepEqual(verdicts.map((v) => v.id).sort(), ids.sort());
  for (const v of verdicts) assert.equal(v.verdict, 'pass', `${v.id}: ${v.reasons.join('; ')}`);
  assert.ok(verdict(verdicts, 'MKP-PLUGIN-MISSING-ITEM').findings.length > 0);
  assert.ok(
    verdict(verdicts, 'MKP-PLUGIN-MALFORMED-RAISES').findings.some((f) =>
      /raised ValueError/.test(f.message),
    ),
  );
});

test('MKP-PLUGIN-PACKAGE-VALID fails with each package problem, and nothing else is judged', () => {
  const verdicts = judgeMkp({
    packageProblems: ['no member "info.json" (the manifest as JSON)'],
    load: null,
    runs: [],
  });
  assertFails(verdicts, 'MKP-PLUGIN-PACKAGE-VALID', /info\.json/);
  for (const v of verdicts.filter((x) => x.id !== 'MKP-PLUGIN-PACKAGE-VALID'))
    assert.equal(v.verdict, 'not-verifiable', v.id);
});

test('MKP-PLUGIN-LOADS fails on an import error and on a check function without item', {
  skip: noPython,
}, async () => {
  assertFails(
    await judge(`import no_such_module\n${GOOD}`),
    'MKP-PLUGIN-LOADS',
    /import raised ModuleNotFoundError/,
  );
  assertFails(
    await judge(`from cmk.utils import paths\n${GOOD}`),
    'MKP-PLUGIN-LOADS',
    /No module named 'cmk.utils' \(plug-ins may import only Checkmk's public API/,
  );
  assertFails(
    await judge(variant('def check_demo(item, section):', 'def check_demo(section, item):')),
    'MKP-PLUGIN-LOADS',
    /the check function takes \(section, item\), the reference requires \(item, section\)/,
  );
});

test('PLUGIN-NO-CRASH fails when a check raises on served text', { skip: noPython }, async () => {
  const verdicts = await judge(
    variant('    used = float(value)\n', '    used = float(value)\n    assert used < 90, "too high"\n'),
  );
  assertFails(
    verdicts,
    'PLUGIN-NO-CRASH',
    /busy: check \(plug-in demo, item a\) raised AssertionError: too high/,
  );
  const crash = verdict(verdicts, 'PLUGIN-NO-CRASH').findings.find((f) => !f.passed);
  assert.match(crash?.evidence?.[0]?.response ?? '', /Traceback/);
});

test('PLUGIN-KNOWN-WHEN-SERVED fails when healthy gives an UNKNOWN service', { skip: noPython }, async () => {
  assertFails(
    await judge(
      variant(
        '    used = float(value)\n',
        '    used = float(value)\n    yield Result(state=State.UNKNOWN, summary="cannot tell")\n',
      ),
    ),
    'PLUGIN-KNOWN-WHEN-SERVED',
    /UNKNOWN \(or no result\) although every section was served with known values: Pool a, Pool b/,
  );
});

test('PLUGIN-IGNORES-UNKNOWN fails when an unknown key becomes a service', { skip: noPython }, async () => {
  assertFails(
    await judge(
      variant(
        '        if key.startswith("pool_"):\n            yield Service(item=key[5:])',
        '        yield Service(item=key[5:])',
      ),
    ),
    'PLUGIN-IGNORES-UNKNOWN',
    /unknown sections and keys change the services or states of healthy: .*is new/,
  );
});

test('PLUGIN-FIGURES-FOLLOW-SERVED fails for a metric that keeps its value when the served figure changes', {
  skip: noPython,
}, async () => {
  const verdicts = await judge(
    variant('    used = float(value)\n', '    used = float(value)\n    yield Metric("pool_size", 40.0)\n'),
  );
  assertFails(
    verdicts,
    'PLUGIN-FIGURES-FOLLOW-SERVED',
    /Pool a › pool_size = 40 as in healthy.*busy served demo\/pool_a\/1 = 95/,
  );
});

test('MKP-PLUGIN-MALFORMED-RAISES fails for a parse that reads a word as 0 instead of raising', {
  skip: noPython,
}, async () => {
  assertFails(
    await judge(
      variant('    used = float(value)\n', '    used = float(value) if value.isdigit() else 0.0\n'),
    ),
    'MKP-PLUGIN-MALFORMED-RAISES',
    /<<<demo>>> with 2 number fields replaced by a word: no exception, and Pool a, Pool b reported something else/,
  );
});

test('MKP-PLUGIN-RESULT-TEXT fails on an empty summary and on a service without a Result', {
  skip: noPython,
}, async () => {
  assertFails(
    await judge(
      variant(
        '    used = float(value)\n',
        '    used = float(value)\n    yield Result(state=State.OK, summary="")\n',
      ),
    ),
    'MKP-PLUGIN-RESULT-TEXT',
    /'summary' must be a non-empty str/,
  );
  assertFails(
    await judge(
      variant(
        '    yield from check_levels(',
        '    yield Metric("pool_used", used)\n    return\n    yield from check_levels(',
      ),
    ),
    'MKP-PLUGIN-RESULT-TEXT',
    /Pool a was discovered but its check yields no Result/,
  );
});

test('MKP-PLUGIN-METRIC-NAMES fails on a metric name in camel case', { skip: noPython }, async () => {
  assertFails(
    await judge(variant('metric_name="pool_used"', 'metric_name="PoolUsed"')),
    'MKP-PLUGIN-METRIC-NAMES',
    /not lower_case_with_underscores: PoolUsed/,
  );
});

test('MKP-PLUGIN-METRIC-UNITS fails (as a should) on a millisecond metric name and on an unconverted ms figure', {
  skip: noPython,
}, async () => {
  const named = await judge(variant('metric_name="pool_used"', 'metric_name="pool_wait_ms"'));
  assertFails(named, 'MKP-PLUGIN-METRIC-UNITS', /non-canonical unit: pool_wait_ms/);
  assert.equal(verdict(named, 'MKP-PLUGIN-METRIC-UNITS').level, 'should');
  const texts = Object.fromEntries(
    Object.entries(TEXTS).map(([k, t]) => [k, `${t}<<<demo_wait>>>\nwait_ms 250\n`]),
  );
  const unconverted = await judge(
    `${GOOD}

def discover_wait(section):
    yield Service()


def check_wait(section):
    yield Result(state=State.OK, summary="waiting")
    yield Metric("wait", float(section["wait_ms"]))


agent_section_demo_wait = AgentSection(name="demo_wait", parse_function=parse_demo)
check_plugin_demo_wait = CheckPlugin(
    name="demo_wait", service_name="Wait", discovery_function=discover_wait, check_function=check_wait
)
`,
    texts,
  );
  assertFails(
    unconverted,
    'MKP-PLUGIN-METRIC-UNITS',
    /Wait: wait=250 is the served demo_wait\/wait_ms\/1 unconverted/,
  );
});

test('MKP-PLUGIN-MISSING-ITEM fails for a made-up Result on a missing item', { skip: noPython }, async () => {
  assertFails(
    await judge(
      variant(
        '    if value is None:\n        return\n',
        '    if value is None:\n        yield Result(state=State.CRIT, summary="Pool is gone")\n        return\n',
      ),
    ),
    'MKP-PLUGIN-MISSING-ITEM',
    /demo made up 1 results and 0 metrics for the missing item .*CRIT "Pool is gone"/,
  );
});

test('MKP-PLUGIN-DISCOVERY-STABLE fails when a second discovery of the same text differs', {
  skip: noPython,
}, async () => {
  assertFails(
    await judge(
      variant(
        'def discover_demo(section):\n',
        '_CALLS = []\n\n\ndef discover_demo(section):\n    _CALLS.append(1)\n    if len(_CALLS) > 1:\n        yield Service(item="ghost")\n',
      ),
    ),
    'MKP-PLUGIN-DISCOVERY-STABLE',
    /discovered twice, the services differ: .*Pool ghost/,
  );
});
