import fc from 'fast-check';
import { dataEndpointGenerators, dataEndpointProbe } from './faces/data-endpoint.ts';
import { fleetGenerators, fleetItemGenerators, fleetProbe } from './faces/fleet.ts';
import { maintenanceGenerators, maintenanceProbe } from './faces/maintenance.ts';
import { mcpGenerators, mcpProbe } from './faces/mcp.ts';
import { xmlrpcGenerators, xmlrpcProbe } from './faces/xmlrpc.ts';
import type {
  FaceName,
  Finding,
  FindingKind,
  FuzzGenerator,
  FuzzTargetInfo,
  LivenessProbe,
} from './types.ts';
import { exchange, ncLine, type WireAnswer, type WireRequest } from './wire.ts';

export interface FuzzRunOptions {
  /** Generated inputs per face (split over the face's generators by weight). */
  runs: number;
  seed: number;
  faces: readonly FaceName[];
  /** Longest wait for an answer or a close, in ms (a longer wait is a hang). */
  boundMs: number;
  /** Inputs between two liveness probes. */
  batchSize: number;
  /** Replay one generator at one fast-check path (`<generator id>/<path>`), as the failure line prints it. */
  replay?: { generator: string; path: string };
  /** The server process is still there (a child); absent: not checked. */
  alive?: () => boolean;
  /** RSS of the server, in bytes, when it can be read. */
  rss?: () => number | null;
  /** Progress lines (one per generator). */
  progress?: (line: string) => void;
  /** Other maintenance command names the target lists (for the unknown-command generator). */
  maintenanceCommands?: readonly string[];
  /** The CLI words that select the target in a replay line (e.g. `--target t.json`). */
  replayTarget?: string;
}

export interface GeneratorOutcome {
  face: FaceName;
  id: string;
  title: string;
  clauses: string[];
  status: 'passed' | 'failed' | 'not-verifiable';
  reason?: string;
  inputs: number;
  durationMs: number;
  failure?: {
    kind: FindingKind;
    message: string;
    /** The shrunk input, as sent. */
    request: WireRequest;
    seed: number;
    path: string;
    shrinks: number;
    replayCommand: string;
    replayWire: string;
  };
}

export interface FaceTotals {
  face: FaceName;
  inputs: number;
  crashes: number;
  hangs: number;
  fiveXx: number;
  mismatches: number;
}

export interface FuzzResult {
  startedAt: string;
  finishedAt: string;
  generators: GeneratorOutcome[];
  totals: FaceTotals[];
  rss: { start: number | null; peak: number | null; after: number | null };
}

/** Every generator and probe the target supports, in a stable order (seeds depend on the index). */
export function planGenerators(
  target: FuzzTargetInfo,
  maintenanceCommands: readonly string[] = [],
): { generators: FuzzGenerator[]; probes: Map<FaceName, LivenessProbe>; missing: GeneratorOutcome[] } {
  const generators: FuzzGenerator[] = [];
  const probes = new Map<FaceName, LivenessProbe>();
  const missing: GeneratorOutcome[] = [];
  const absent = (face: FaceName, id: string, title: string, clauses: string[], reason: string) =>
    missing.push({ face, id, title, clauses, status: 'not-verifiable', reason, inputs: 0, durationMs: 0 });
  if (target.data) {
    generators.push(...(dataEndpointGenerators(target.data) as FuzzGenerator[]));
    probes.set('data', dataEndpointProbe(target.data));
    if (target.data.unlistedClient === undefined)
      absent(
        'data',
        'data-unlisted',
        'data endpoint: an unlisted client is closed without a byte',
        ['MON-AUTH-UNLISTED-CLOSED'],
        'the target names no unlisted client address',
      );
  }
  if (target.xmlrpc) {
    generators.push(...(xmlrpcGenerators(target.xmlrpc) as FuzzGenerator[]));
    probes.set('xmlrpc', xmlrpcProbe(target.xmlrpc));
  }
  if (target.maintenance) {
    generators.push(...(maintenanceGenerators(target.maintenance, maintenanceCommands) as FuzzGenerator[]));
    probes.set('maintenance', maintenanceProbe(target.maintenance));
    if (target.maintenance.token === undefined) {
      const reason = 'no API token: the target has no control plane that could mint one';
      absent(
        'maintenance',
        'maint-unknown-endpoint',
        'maintenance API: unknown endpoint',
        ['MAINT-ERR-404-UNKNOWN-PATH', 'MAINT-ERR-404-WRONG-METHOD'],
        reason,
      );
      absent(
        'maintenance',
        'maint-unknown-command',
        'maintenance API: unknown command',
        ['MAINT-ERR-404-UNKNOWN-COMMAND'],
        reason,
      );
      absent(
        'maintenance',
        'maint-too-large',
        'maintenance API: body too large',
        ['MAINT-ERR-413-BODY-TOO-LARGE'],
        reason,
      );
    }
  }
  if (target.fleet) {
    generators.push(...(fleetGenerators(target.fleet) as FuzzGenerator[]));
    generators.push(...(fleetItemGenerators(target.fleet) as FuzzGenerator[]));
    if (target.fleet.item === undefined)
      absent(
        'fleet',
        'fleet-comment-too-long',
        'fleet REST: comment too long',
        ['FLEET-ERR-400-COMMENT-TOO-LONG'],
        'no open attention item: the target has no fleet control plane that could raise one',
      );
    probes.set('fleet', fleetProbe(target.fleet));
  }
  if (target.mcp) {
    generators.push(...(mcpGenerators(target.mcp) as FuzzGenerator[]));
    probes.set('mcp', mcpProbe(target.mcp));
  }
  return { generators, probes, missing };
}

/** `runs` split by weight, the remainder to the first ones, so the shares add up to `runs`. */
export function splitRuns(runs: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w) => Math.floor((runs * w) / sum));
  let left = runs - shares.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % shares.length, left--) shares[i] = (shares[i] ?? 0) + 1;
  return shares;
}

/** A stable number per generator id, so its seed does not depend on which faces run. */
function seedOffset(id: string): number {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return Math.abs(hash) % 100_000;
}

/**
 * Sends generated malformed input to every chosen face of `target` with fast-check: per
 * generator one property over `runs × weight / Σweights` inputs, every answer checked (no hang,
 * no 5xx, the spec's answer where it names one), a liveness probe after each batch (no crash). A
 * failure is shrunk to a minimal input and reported with the command that replays it.
 */
export async function runFuzz(target: FuzzTargetInfo, options: FuzzRunOptions): Promise<FuzzResult> {
  const startedAt = new Date().toISOString();
  const rssStart = options.rss?.() ?? null;
  let rssPeak = rssStart;
  const sampleRss = () => {
    const now = options.rss?.() ?? null;
    if (now !== null && (rssPeak === null || now > rssPeak)) rssPeak = now;
  };
  const plan = planGenerators(target, options.maintenanceCommands ?? []);
  const secrets = targetSecrets(target);
  const outcomes: GeneratorOutcome[] = [];
  const totals = new Map<FaceName, FaceTotals>();
  for (const face of options.faces)
    totals.set(face, { face, inputs: 0, crashes: 0, hangs: 0, fiveXx: 0, mismatches: 0 });

  const replayed = options.replay?.generator;
  if (
    replayed !== undefined &&
    !plan.generators.some((g) => g.id === replayed && options.faces.includes(g.face))
  ) {
    const known = plan.generators.filter((g) => options.faces.includes(g.face)).map((g) => g.id);
    throw new FuzzReplayError(
      `--path names no generator of faces ${options.faces.join(',')}: '${replayed}' (generators: ${known.join(', ')})`,
    );
  }
  for (const face of options.faces) {
    const own = plan.generators.filter((g) => g.face === face);
    const probe = plan.probes.get(face);
    outcomes.push(...plan.missing.filter((m) => m.face === face && !options.replay));
    if (own.length === 0 || !probe) {
      if (!options.replay)
        outcomes.push({
          face,
          id: `${face}-face`,
          title: `${face}: the target does not describe this face`,
          clauses: [],
          status: 'not-verifiable',
          reason: 'the target does not describe this face',
          inputs: 0,
          durationMs: 0,
        });
      continue;
    }
    const shares = splitRuns(
      options.runs,
      own.map((g) => g.weight),
    );
    for (const [index, generator] of own.entries()) {
      if (options.replay && options.replay.generator !== generator.id) continue;
      const runs = Math.max(1, shares[index] ?? 1);
      const outcome = await runGenerator(generator, probe, runs, options, sampleRss, secrets);
      outcomes.push(outcome);
      const total = totals.get(face);
      if (total) {
        total.inputs += outcome.inputs;
        const kind = outcome.failure?.kind;
        if (kind === 'crash') total.crashes++;
        if (kind === 'hang') total.hangs++;
        if (kind === '5xx') total.fiveXx++;
        if (kind === 'mismatch') total.mismatches++;
      }
      options.progress?.(
        `${generator.id.padEnd(24)} ${String(outcome.inputs).padStart(6)} inputs  ${outcome.status}${outcome.failure ? ` (${outcome.failure.kind})` : ''}  ${(outcome.durationMs / 1000).toFixed(1)} s`,
      );
    }
  }
  sampleRss();
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    generators: outcomes,
    totals: [...totals.values()],
    rss: { start: rssStart, peak: rssPeak, after: options.rss?.() ?? null },
  };
}

/**
 * The target's credentials in every form a request carries them (as is, URL-encoded, inside a
 * Basic header), with the placeholder that replaces them in printed lines and reports: secrets
 * never appear there, not even partly (the `--seed`/`--path` line still replays the exact bytes).
 */
export function targetSecrets(target: FuzzTargetInfo): Array<{ secret: string; label: string }> {
  const out: Array<{ secret: string; label: string }> = [];
  const add = (secret: string | undefined, label: string) => {
    if (secret === undefined || secret.length < 4) return;
    out.push({ secret, label }, { secret: encodeURIComponent(secret), label });
  };
  if (target.xmlrpc) {
    add(target.xmlrpc.authValue, 'xml-rpc credentials');
    add(target.xmlrpc.authValue.slice(target.xmlrpc.authValue.lastIndexOf(':') + 1), 'xml-rpc secret');
  }
  add(target.maintenance?.token, 'maintenance token');
  add(target.mcp?.token, 'mcp token');
  for (const [who, account] of [
    ['account', target.fleet?.account],
    ['viewer', target.fleet?.viewer],
  ] as const) {
    if (!account) continue;
    add(
      Buffer.from(`${account.email}:${account.password}`, 'utf8').toString('base64'),
      `basic credentials of the ${who}`,
    );
    add(account.password, `password of the ${who}`);
  }
  // Longest first, so a secret inside another is replaced with the larger one.
  return out.sort((a, b) => b.secret.length - a.secret.length);
}

function redactBytes(bytes: Buffer, secrets: Array<{ secret: string; label: string }>): Buffer {
  let out = bytes;
  for (const { secret, label } of secrets) {
    const needle = Buffer.from(secret, 'utf8');
    const parts: Buffer[] = [];
    let from = 0;
    for (let at = out.indexOf(needle, from); at >= 0; at = out.indexOf(needle, from)) {
      parts.push(out.subarray(from, at), Buffer.from(`<${label}>`));
      from = at + needle.length;
    }
    if (parts.length > 0) out = Buffer.concat([...parts, out.subarray(from)]);
  }
  return out;
}

function redactText(text: string, secrets: Array<{ secret: string; label: string }>): string {
  return redactBytes(Buffer.from(text, 'utf8'), secrets).toString('utf8');
}

/** A replay request that cannot name an input of this run (`fuzz` turns it into exit 2). */
export class FuzzReplayError extends Error {
  override name = 'FuzzReplayError';
}

/**
 * Checks a replay path against the generator it names before fast-check walks it: the first
 * number is the index of a generated input, which fast-check reaches by generating every input
 * before it, so an index far beyond the run ran CPU-bound for minutes (issue 20, item 14). It must
 * be below the inputs the generator makes at this `--runs`; the shrink steps after it are bounded
 * by their (finite) shrink streams.
 */
function checkReplayPath(generator: FuzzGenerator, path: string, runs: number, totalRuns: number): void {
  const [first = ''] = path.split(':');
  const index = Number(first);
  if (!Number.isSafeInteger(index) || index >= runs)
    throw new FuzzReplayError(
      `--path ${generator.id}/${path}: input ${first} is beyond the ${runs} inputs ${generator.id} makes at --runs ${totalRuns}; replay with the --seed and --runs the failure line prints`,
    );
}

async function runGenerator(
  generator: FuzzGenerator,
  probe: LivenessProbe,
  runs: number,
  options: FuzzRunOptions,
  sampleRss: () => void,
  secrets: Array<{ secret: string; label: string }>,
): Promise<GeneratorOutcome> {
  if (options.replay) checkReplayPath(generator, options.replay.path, runs, options.runs);
  const started = performance.now();
  const seed = (options.seed + seedOffset(generator.id)) | 0;
  let inputs = 0;
  let shrinking = false;
  let first: Finding | null = null;
  let last: { request: WireRequest; finding: Finding } | null = null;
  const property = fc.asyncProperty(generator.arbitrary, async (input: unknown) => {
    const request = generator.request(input);
    const answer: WireAnswer = await exchange(request, options.boundMs);
    let finding = generator.check(input, answer);
    if (!shrinking) {
      inputs++;
      if (!finding && inputs % options.batchSize === 0) {
        sampleRss();
        finding = await liveness(probe, options);
      }
    }
    if (finding) {
      if (!shrinking) first = finding;
      shrinking = true;
      // Shrinking keeps only failures of the same kind, so a minimal input shows the same defect.
      if (first && finding.kind !== first.kind) return true;
      last = { request, finding };
      return false;
    }
    return true;
  });
  const parameters: fc.Parameters<[unknown]> = {
    numRuns: options.replay ? 1 : runs,
    seed,
    ...(options.replay ? { path: options.replay.path } : {}),
  };
  const details = await fc.check(property, parameters);
  const durationMs = performance.now() - started;
  const base = {
    face: generator.face,
    id: generator.id,
    title: generator.title,
    clauses: generator.clauses,
    inputs,
    durationMs,
  };
  const found = last as { request: WireRequest; finding: Finding } | null;
  if (!details.failed || !found) return { ...base, status: 'passed' };
  const path = details.counterexamplePath ?? '';
  const replayCommand = [
    'pbx-conformance fuzz',
    options.replayTarget ?? '',
    `--faces ${generator.face}`,
    `--seed ${options.seed}`,
    `--runs ${options.runs}`,
    `--path '${generator.id}/${path}'`,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    ...base,
    status: 'failed',
    failure: {
      kind: found.finding.kind,
      message: redactText(found.finding.message, secrets),
      request: found.request,
      seed,
      path,
      shrinks: details.numShrinks,
      replayCommand,
      replayWire: wireLine({ ...found.request, bytes: redactBytes(found.request.bytes, secrets) }),
    },
  };
}

async function liveness(probe: LivenessProbe, options: FuzzRunOptions): Promise<Finding | null> {
  if (options.alive && !options.alive()) return { kind: 'crash', message: 'the server process has exited' };
  const answer = await exchange(probe.request(), options.boundMs);
  if (probe.ok(answer)) return null;
  return {
    kind: 'crash',
    message: `after this batch a good ${probe.face} request is no longer answered (${answer.ending}, ${answer.http ? `HTTP ${answer.http.status}` : `${answer.bytes.length} bytes`})`,
  };
}

/** The nc line, or for a large request its size and start (the seed and path replay it exactly). */
function wireLine(request: WireRequest): string {
  if (request.bytes.length <= 2048) return ncLine(request);
  const head = ncLine({ ...request, bytes: request.bytes.subarray(0, 160) });
  return `${request.bytes.length} bytes, starting: ${head}`;
}
