import { readFileSync } from 'node:fs';

/**
 * `node --import tsx bench/profile-summary.ts <file.cpuprofile> [top] [from]`: where a `--cpu-prof`
 * profile's time went — self time by function (with its file and line), and by area: this
 * project's code, each dependency, Node's own JavaScript, native code (`(program)`, GC), idle.
 * `from` (µs of the monotonic clock, as `bench/profile-face.ts` prints when its load begins)
 * leaves out the samples before it: the start-up's module loading; `to` those from it on.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, topArg, fromArg, toArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
const from = Number(fromArg ?? 0);
const to = Number(toArg ?? Number.POSITIVE_INFINITY);
let at = profile.startTime;
for (const [i, id] of profile.samples.entries()) {
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  if (at >= from && at < to) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
}

const areaOf = (url: string, name: string): string => {
  if (name === '(idle)') return 'idle';
  if (name === '(garbage collector)') return 'GC';
  if (name === '(program)' || url === '') return 'native / (program)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dep) return `dep ${dep[1]}`;
  const own = /\/(simulators|src|bench|steps)\/(.*)$/.exec(url);
  return own ? `own ${own[1]}/${own[2]!.split('/').slice(0, -1).join('/')}` : url;
};

const functions = new Map<string, number>();
const areas = new Map<string, number>();
let total = 0;
let busy = 0;
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const short = url.replace(/^.*\/(simulators|src|bench|node_modules)\//, '$1/');
  const key = `${functionName || '(anonymous)'}  ${short}${url ? `:${lineNumber + 1}` : ''}`;
  functions.set(key, (functions.get(key) ?? 0) + us);
  const area = areaOf(url, functionName);
  areas.set(area, (areas.get(area) ?? 0) + us);
  total += us;
  if (area !== 'idle') busy += us;
  else functions.delete(key);
}
const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
console.log(
  `${file}: ${(total / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy (shares of busy)`,
);
console.log('\nby area');
for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1]))
  if (area !== 'idle') console.log(`${pct(us)}  ${area}`);
console.log('\nby function (self time)');
for (const [key, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25)))
  console.log(`${pct(us)}  ${key}`);
