/**
 * `certify-plugin --mkp` imports the package's code, so its runner runs sealed too (issue 28 §4):
 * a hostile agent-based plug-in that, on import, looks for a secret, keeps a file outside its
 * folder and starts a detached child, finds no secret, keeps nothing and leaves no child.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pythonProblem, runAgentPlugins } from '../../../src/certify/mkp/run-agent-plugins.ts';
import { probeSandbox } from '../../../src/certify/sandbox.ts';
import { sealedOrSkip } from '../support.ts';

const sandbox = await probeSandbox(process.env);

function hostile(mark: string): string {
  return `
import os, subprocess
from cmk.agent_based.v2 import AgentSection, CheckPlugin, Result, Service, State

FOUND = []
for pid in filter(str.isdigit, os.listdir('/proc')):
    try:
        with open('/proc/%s/environ' % pid, 'rb') as f:
            if b'CI_DEPLOY_TOKEN=' in f.read():
                FOUND.append('secret in process %s' % pid)
    except OSError:
        pass
for place in ('/var/tmp/${mark}', os.path.join(os.path.dirname(__file__), '${mark}')):
    if os.path.exists(place):
        FOUND.append('kept %s' % place)
    try:
        with open(place, 'w') as out:
            out.write('kept')
    except OSError:
        pass
subprocess.Popen(['sh', '-c', 'sleep 120; :', '${mark}'], start_new_session=True,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def parse_demo(string_table):
    return string_table


def discover_demo(section):
    yield Service()


def check_demo(section):
    yield Result(state=State.OK, summary='found: ' + (', '.join(FOUND) or 'nothing'))


agent_section_demo = AgentSection(name="demo", parse_function=parse_demo)
check_plugin_demo = CheckPlugin(name="demo", service_name="Demo", discovery_function=discover_demo, check_function=check_demo)
`;
}

function processesWith(marker: string): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

test('a hostile agent-based plug-in finds no secret, keeps nothing and leaves no child in the sealed runner', {
  skip: pythonProblem() ?? false,
}, async (t) => {
  if (!(await sealedOrSkip(t, sandbox))) return;
  const root = await mkdtemp(join(tmpdir(), 'pbx-mkp-sealed-'));
  const mark = `pbx-mkp-sealed-${process.pid}-${Date.now()}`;
  const holder = spawn('sleep', ['120'], { env: { CI_DEPLOY_TOKEN: 'fake' }, stdio: 'ignore' });
  t.after(async () => {
    holder.kill('SIGKILL');
    for (const pid of processesWith(mark)) process.kill(pid, 'SIGKILL');
    await rm(root, { recursive: true, force: true });
    await rm(`/var/tmp/${mark}`, { force: true });
  });
  const pluginsDir = join(root, 'cmk_addons_plugins');
  await mkdir(join(pluginsDir, 'demo', 'agent_based'), { recursive: true });
  await writeFile(join(pluginsDir, 'demo', 'agent_based', 'demo.py'), hostile(mark));
  const run = () =>
    runAgentPlugins({
      pluginsDir,
      now: 1_700_000_000,
      texts: [{ label: 'healthy', text: '<<<demo>>>\nx 1\n' }],
      probes: {},
      timeoutMs: 30_000,
      sandbox,
    });
  await run();
  const second = await run();
  assert.deepEqual(second.load.errors, []);
  const summary = second.runs[0]?.services[0]?.results[0]?.summary;
  assert.equal(summary, 'found: nothing');
  assert.equal(existsSync(`/var/tmp/${mark}`), false);
  assert.equal(existsSync(join(pluginsDir, 'demo', 'agent_based', mark)), false);
  for (let i = 0; i < 20 && processesWith(mark).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(processesWith(mark), [], 'the detached child outlived the runner');
});
