import type { CertifyResult, ExtraRunClause } from '../../../src/certify/certify.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';

/**
 * Everything a certification of features/certify/ depends on: the plug-ins the scenario wrote
 * (name and source), its expectations file (YAML as written), the command, the catalog scenarios,
 * the options, and the variables the scenario added to the harness's environment. Two scenarios
 * with the same spec get the same certification (issue 31 §1).
 */
export interface CertificationSpec {
  plugins: [name: string, source: string][];
  expectationsYaml: string | null;
  command: string;
  scenarios: string[];
  generated: number;
  /** All the extra runs, none, or those of the clauses listed (`CertifyInput.extraRuns`). */
  extraRuns: boolean | ExtraRunClause[];
  /** Variables set for this certification on top of the harness's environment. */
  env: Record<string, string>;
}

/** A finished certification: the folder it ran in (its plug-ins), its result and its report. */
export interface CertificationDone {
  dir: string;
  result: CertifyResult;
  report: CompatibilityReport;
}
