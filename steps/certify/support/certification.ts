import { rm } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { type CertifyResult, EXTRA_RUN_CLAUSES, type ExtraRunClause } from '../../../src/certify/certify.ts';
import { parseExpectations } from '../../../src/certify/expectations.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';
import { CertificationProcess } from './certification-process.ts';
import type { CertificationDone, CertificationSpec } from './certification-spec.ts';

export type { CertificationDone, CertificationSpec } from './certification-spec.ts';

/**
 * The When step of features/certify/ (certify.steps.ts), also read by the prefetch
 * (prefetch.ts): the command, the catalog scenarios, the generated states, the extra runs (all,
 * or only those of the clause named: a scenario makes only the runs its clause needs).
 */
export const CERTIFY_STEP = new RegExp(
  `^certify-plugin runs "([^"]*)" on the scenarios? ((?:"[^"]*"(?:, | and )?)+)(?: and (\\d+) generated states)?( with the extra runs(?: of (?:${EXTRA_RUN_CLAUSES.join('|')}))?)?$`,
);

/** What the When step says. */
export type CertifyStep = Pick<CertificationSpec, 'command' | 'scenarios' | 'generated' | 'extraRuns'>;

/** The When step parsed: `null` when the text is not the When step. */
export function parseCertifyStep(text: string): CertifyStep | null {
  const match = CERTIFY_STEP.exec(text);
  return match ? certifyStepOf(match.slice(1)) : null;
}

/**
 * The When step from the groups of {@link CERTIFY_STEP} (Cucumber hands an optional group that
 * did not match as null, a regular expression match as undefined).
 */
export function certifyStepOf(groups: readonly (string | null | undefined)[]): CertifyStep {
  const [command, names, generated, extra] = groups;
  const of = / of (PLUGIN-[A-Z-]+)$/.exec(extra ?? '')?.[1];
  return {
    command: command ?? '',
    scenarios: [...(names ?? '').matchAll(/"([^"]*)"/g)].map((m) => m[1] as string),
    generated: Number(generated ?? 0),
    // Only the extra runs of the clause named, else all of them (issue 31 §1).
    extraRuns: of ? [of as ExtraRunClause] : Boolean(extra),
  };
}

/**
 * The certifications of this process, one per spec: a scenario whose spec was certified before
 * (or is being certified, e.g. started ahead by the prefetch) gets that certification. Each is
 * made in the certification process (certification-process.ts, certify-in-process.ts), in a folder
 * of its own (its plug-ins, its reports), removed by {@link closeCertifications}. Its plug-in runs
 * take turns with every other certification's for that process's run slots (src/certify/run-slots.ts).
 */
const certifications = new Map<string, Promise<CertificationDone>>();
const certifier = new CertificationProcess();

/** The key of a spec: every part of it, plug-ins by name. */
function keyOf(spec: CertificationSpec): string {
  return JSON.stringify({
    ...spec,
    plugins: [...spec.plugins].sort(([a], [b]) => a.localeCompare(b)),
    env: Object.entries(spec.env).sort(([a], [b]) => a.localeCompare(b)),
  });
}

/** The certification of `spec`: the one already made or started, else a new one started now. */
export function certification(spec: CertificationSpec): Promise<CertificationDone> {
  const key = keyOf(spec);
  let done = certifications.get(key);
  if (!done) {
    done = certifier.certify(spec);
    // Awaited by the scenario (or by closeCertifications): never an unhandled rejection meanwhile.
    done.catch(() => {});
    certifications.set(key, done);
  }
  return done;
}

/** How many certifications this process made or started, and how many of them are done. */
export function certificationCount(): number {
  return certifications.size;
}

/** Waits for every certification started, removes their folders and ends the certification process. */
export async function closeCertifications(): Promise<void> {
  const all = [...certifications.values()];
  certifications.clear();
  const settled = await Promise.allSettled(all);
  await Promise.all(
    settled.map((s) => (s.status === 'fulfilled' ? rm(s.value.dir, { recursive: true, force: true }) : null)),
  );
  await certifier.close();
}

/**
 * What one scenario of features/certify/ gathers before its When step (the plug-ins, the
 * expectations, the variables it adds), then the certification it got.
 */
export class Certification {
  private readonly plugins = new Map<string, string>();
  private expectationsYaml: string | null = null;
  /** Variables the scenario adds to the harness's environment (a secret a process holds). */
  readonly env: Record<string, string> = {};
  private done: CertificationDone | undefined;
  /** The command as the scenario wrote it. */
  command = '';

  /** The harness's environment with the scenario's additions. */
  get harnessEnv(): NodeJS.ProcessEnv {
    return { ...process.env, ...this.env };
  }

  /** Notes an executable plug-in for the scenario's certification folder. */
  writePlugin(name: string, source: string): void {
    if (!/^[A-Za-z0-9_.-]+$/.test(name))
      throw new Error(`plug-in file name ${name}: letters, digits, _ . - only`);
    this.plugins.set(name, source);
  }

  /** Notes the expectations file, checked at once (a broken one fails its Given step). */
  async setExpectations(yaml: string): Promise<void> {
    await parseExpectations(parseYaml(yaml), 'the scenario');
    this.noteExpectations(yaml);
  }

  /** Notes the expectations file unchecked (the prefetch: the certification checks it). */
  noteExpectations(yaml: string): void {
    this.expectationsYaml = yaml;
  }

  /** The scenario's spec for the When step's command, scenarios and options. */
  spec(step: CertifyStep): CertificationSpec {
    return {
      plugins: [...this.plugins],
      expectationsYaml: this.expectationsYaml,
      ...step,
      env: { ...this.env },
    };
  }

  /** Gets the certification of the scenario's spec (made now, or earlier for the same spec). */
  async run(step: CertifyStep): Promise<void> {
    this.command = step.command;
    this.done = await certification(this.spec(step));
  }

  /** The folder the certification ran in (its plug-ins); only after the When step. */
  get dir(): string {
    if (!this.done) throw new Error('no certification ran: a When step must run certify-plugin first');
    return this.done.dir;
  }

  get result(): CertifyResult | undefined {
    return this.done?.result;
  }

  get report(): CompatibilityReport | undefined {
    return this.done?.report;
  }
}
