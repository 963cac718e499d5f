import type { Pickle } from '@cucumber/messages';
import { localeInstalled } from '../../../src/certify/certify.ts';
import { selectedScenarios } from '../../../src/runner/selected-scenarios.ts';
import { Certification, type CertificationSpec, certification, parseCertifyStep } from './certification.ts';

/** A check of the machine the scenario makes itself (sealed.steps.ts); it changes no input. */
const SEALING_STEP = 'this machine can seal a plug-in run';

/**
 * Issue 31 §1: starts, in the background, the certification of every selected scenario of
 * features/certify/ whose steps before its When step are only the plug-ins, the expectations file,
 * a locale this machine has and the check that it can seal a run, so that it is made while the other features run (the runner
 * puts features/certify/ last) and the scenario finds it done. The scenario's own steps still
 * gather its spec and take the certification of that spec (certification.ts): one made here for
 * the same spec, else a new one. Nothing is started against a `--target`, in a parallel worker
 * (which sees no selection), or for a scenario with any other step before its When step (the
 * scenario in which a process of the harness holds a secret). Returns how many
 * certifications were started.
 */
export function prefetchCertifications(tag: string): number {
  const { pickles, embedded } = selectedScenarios();
  if (!embedded) return 0;
  let started = 0;
  for (const pickle of pickles) {
    if (!pickle.tags.some((t) => t.name === tag)) continue;
    const spec = specOf(pickle);
    if (!spec) continue;
    void certification(spec).catch(() => {});
    started += 1;
  }
  return started;
}

/** The spec the scenario's steps will gather, or `null` when a step is not one of those above. */
function specOf(pickle: Pickle): CertificationSpec | null {
  const gathered = new Certification();
  for (const step of pickle.steps) {
    const doc = step.argument?.docString?.content;
    const plugin = /^the plug-in "([^"]*)":$/.exec(step.text);
    const locale = /^this machine has the locale "([^"]*)"$/.exec(step.text);
    if (plugin && doc !== undefined) {
      try {
        gathered.writePlugin(plugin[1] as string, doc);
      } catch {
        return null;
      }
    } else if (step.text === 'the expectations file:' && doc !== undefined) gathered.noteExpectations(doc);
    else if (locale) {
      if (!localeInstalled(locale[1] as string)) return null;
    } else if (step.text === SEALING_STEP) {
      // Checked by the scenario's own step; a machine that cannot seal makes its runs unsealed.
    } else {
      const when = parseCertifyStep(step.text);
      return when ? gathered.spec(when) : null;
    }
  }
  return null;
}
