import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type Recording, streamBytes } from '../../simulators/pbx/index.ts';
import { PROJECT_ROOT } from '../core/project-paths.ts';
import { joinProblems, strictValidator } from '../core/strict-schema.ts';
import { loadTargetFile } from '../core/target-file.ts';
import { ensureWritableDir } from '../report/ensure-writable-dir.ts';
import { buildRecording } from './build-recording.ts';
import { fetchSample, type RawSample } from './record-target.ts';
import { type RedactionRule, Redactor } from './redact.ts';

export interface RecordOptions {
  target: string;
  out: string;
  repeat?: number;
  /** Milliseconds between samples. */
  every?: number;
  timeout?: number;
  rules?: string;
  /** A file whose bytes key the pseudonyms (recordings with the same key share pseudonyms). */
  redactionKey?: string;
  /** Virtual or real waiting between samples (tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
}

export const RECORDING_SCHEMA_PATH = join(PROJECT_ROOT, 'schemas', 'pbx-recording.schema.json');
const RULES_SCHEMA_PATH = join(PROJECT_ROOT, 'schemas', 'redaction-rules.schema.json');

/** A usage or input problem of `record` (exit 2), one line. */
export class RecordUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordUsageError';
  }
}

/**
 * `pbx-conformance record`: fetches every face of the target `repeat` times, `every` ms apart,
 * redacts the samples (src/record/redact.ts) and writes one recording
 * (schemas/pbx-recording.schema.json) plus the last raw agent output as a Checkmk-compatible dump
 * (`<out>.checkmk`: the bytes a Checkmk fetcher gets, for a datasource program `cat`).
 * Checks what it will write before the first fetch. Returns the paths written.
 */
export async function recordCommand(
  options: RecordOptions,
  cwd: string,
  log: (line: string) => void = () => {},
): Promise<{ recording: string; dump: string; value: Recording }> {
  // What it will write first (issue 29, item 10): a missing folder is made, as verify --reports does.
  const out = resolve(cwd, options.out);
  const dump = `${out.replace(/\.json$/, '')}.checkmk`;
  await checkWritable(out);
  await checkWritable(dump);
  const target = loadTargetFile(resolve(cwd, options.target));
  const rules = options.rules ? readRules(resolve(cwd, options.rules)) : [];
  const key = options.redactionKey ? readKey(resolve(cwd, options.redactionKey)) : randomBytes(32);
  const repeat = options.repeat ?? 1;
  const every = options.every ?? 60_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const samples: RawSample[] = [];
  const started = Date.now();
  for (let i = 0; i < repeat; i++) {
    if (i > 0) await sleep(every);
    log(`sample ${i + 1}/${repeat}`);
    samples.push(
      await fetchSample(target, i === 0 ? 0 : i * every, {
        timeoutMs: options.timeout ?? 10_000,
        maintenance: true,
      }),
    );
  }
  void started;
  const redactor = new Redactor(key, rules);
  const recording = await buildRecording(target, samples, redactor, {
    toolVersion: toolVersion(),
    keyGiven: options.redactionKey !== undefined,
    ruleNames: rules.map((rule) => rule.name),
  });
  const verdict = strictValidator(RECORDING_SCHEMA_PATH).validate(recording);
  if (!verdict.ok)
    throw new Error(`the recording does not match its schema: ${joinProblems(verdict.problems)}`);
  await writeFile(out, `${JSON.stringify(recording, null, 2)}\n`);
  const last = [...recording.samples].reverse().find((sample) => sample.dataEndpoint?.raw);
  await writeFile(dump, last?.dataEndpoint?.raw ? streamBytes(last.dataEndpoint.raw) : Buffer.alloc(0));
  return { recording: out, dump, value: recording };
}

function readRules(path: string): RedactionRule[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RecordUsageError(`rule file ${path}: ${(error as Error).message}`);
  }
  const verdict = strictValidator(RULES_SCHEMA_PATH).validate(value);
  if (!verdict.ok) throw new RecordUsageError(`rule file ${path}: ${joinProblems(verdict.problems)}`);
  const rules = (value as { rules: RedactionRule[] }).rules;
  for (const rule of rules) {
    try {
      new RegExp(rule.pattern, 'g');
    } catch (error) {
      throw new RecordUsageError(`rule file ${path}: rule ${rule.name}: ${(error as Error).message}`);
    }
  }
  return rules;
}

function readKey(path: string): Buffer {
  try {
    const key = readFileSync(path);
    if (key.length < 16) throw new Error('shorter than 16 bytes');
    return key;
  } catch (error) {
    throw new RecordUsageError(`redaction key file ${path}: ${(error as Error).message}`);
  }
}

/** The output's folder exists (made if missing) and takes a file, and the path itself is no folder. */
async function checkWritable(path: string): Promise<void> {
  try {
    await ensureWritableDir(dirname(path), 'the folder of');
  } catch (error) {
    throw new RecordUsageError(`--out: ${(error as Error).message}`);
  }
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) throw new RecordUsageError(`${path} is a folder`);
  const probe = `${path}.probe-${process.pid}`;
  try {
    await writeFile(probe, '');
  } catch (error) {
    throw new RecordUsageError(`${dirname(path)} is not writable (${(error as NodeJS.ErrnoException).code})`);
  } finally {
    await rm(probe, { force: true });
  }
}

function toolVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}
