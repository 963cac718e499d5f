import type { Envelope } from '@cucumber/messages';
import type { Catalog } from '../../../src/catalog/catalog.ts';
import { type BuildReportInput, buildReport, type CoverageGates } from '../../../src/report/build-report.ts';
import type { EvidenceForm } from '../../../src/report/compact-evidence.ts';
import type { ExpectedFailures } from '../../../src/report/expected-failures.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';
import { collectScenarioResults, cucumberVersion } from '../../../src/report/scenario-results.ts';

/** What a test says of a verify run: Cucumber's messages and the run's facts, as verify gives them. */
export interface MessagesInput {
  envelopes: readonly Envelope[];
  repeatedRuns?: ReadonlyArray<readonly Envelope[]>;
  catalog: Catalog;
  metadata: Omit<BuildReportInput['run'], 'command'>;
  expectedFailures: ExpectedFailures;
  provedInFeatures?: ReadonlySet<string>;
  gates?: CoverageGates;
  evidence?: EvidenceForm;
}

/** A verify report from Cucumber's messages, through the one report builder as verify-command.ts calls it. */
export function buildFromMessages(input: MessagesInput): CompatibilityReport {
  return buildReport({
    run: { ...input.metadata, command: 'verify', cucumberVersion: cucumberVersion(input.envelopes) },
    catalog: input.catalog,
    results: {
      scenarios: collectScenarioResults(input.envelopes),
      catalog: input.catalog,
      ...(input.repeatedRuns
        ? { repeatedRuns: input.repeatedRuns.map((round) => collectScenarioResults(round)) }
        : {}),
      ...(input.provedInFeatures ? { provedInFeatures: input.provedInFeatures } : {}),
      ...(input.evidence ? { evidence: input.evidence } : {}),
    },
    expectedFailures: input.expectedFailures,
    ...(input.gates ? { gates: input.gates } : {}),
  });
}
