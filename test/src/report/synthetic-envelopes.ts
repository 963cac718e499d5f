import type { Envelope } from '@cucumber/messages';

/** Minimal Cucumber message streams for report tests, shaped like cucumber-js 12 emits them. */

export type StepStatus = 'PASSED' | 'FAILED' | 'SKIPPED' | 'PENDING' | 'UNDEFINED' | 'AMBIGUOUS' | 'UNKNOWN';

export interface SyntheticStep {
  keyword?: string;
  text: string;
  status: StepStatus;
  message?: string;
  /** Class name of the thrown error (Cucumber's `exception.type`), e.g. `FixtureError`. */
  exceptionType?: string;
  attachments?: Array<{ mediaType: string; body: string; base64?: boolean }>;
}

export interface SyntheticScenario {
  name: string;
  tags: string[];
  steps: SyntheticStep[];
  /** Emit a failed first attempt that will be retried before the real one. */
  retriedBefore?: boolean;
  /** Duration of the final attempt in ms. */
  durationMs?: number;
}

export function syntheticEnvelopes(
  scenarios: SyntheticScenario[],
  uri = 'features/demo.feature',
): Envelope[] {
  const out: unknown[] = [
    {
      meta: {
        protocolVersion: '32.3.1',
        implementation: { name: 'cucumber-js', version: '12.9.0' },
        runtime: { name: 'node' },
        os: { name: 'linux' },
        cpu: { name: 'x64' },
      },
    },
  ];
  const children = scenarios.map((scenario, s) => ({
    scenario: {
      id: `sc${s}`,
      location: { line: 3 + s * 10, column: 3 },
      tags: scenario.tags.map((name, t) => ({
        id: `tag${s}-${t}`,
        name,
        location: { line: 2 + s * 10, column: 3 },
      })),
      keyword: 'Scenario',
      name: scenario.name,
      description: '',
      steps: scenario.steps.map((step, i) => ({
        id: `st${s}-${i}`,
        location: { line: 4 + s * 10 + i, column: 5 },
        keyword: `${step.keyword ?? 'Given'} `,
        text: step.text,
      })),
      examples: [],
    },
  }));
  out.push({
    gherkinDocument: {
      uri,
      comments: [],
      feature: {
        location: { line: 1, column: 1 },
        tags: [],
        language: 'en',
        keyword: 'Feature',
        name: 'demo',
        description: '',
        children,
      },
    },
  });
  scenarios.forEach((scenario, s) => {
    out.push({
      pickle: {
        id: `pk${s}`,
        uri,
        location: { line: 3 + s * 10, column: 3 },
        name: scenario.name,
        language: 'en',
        astNodeIds: [`sc${s}`],
        tags: scenario.tags.map((name, t) => ({ name, astNodeId: `tag${s}-${t}` })),
        steps: scenario.steps.map((step, i) => ({
          id: `ps${s}-${i}`,
          text: step.text,
          astNodeIds: [`st${s}-${i}`],
        })),
      },
    });
  });
  out.push({ testRunStarted: { timestamp: { seconds: 100, nanos: 0 }, id: 'run' } });
  scenarios.forEach((scenario, s) => {
    out.push({
      testCase: {
        id: `tc${s}`,
        pickleId: `pk${s}`,
        testSteps: scenario.steps.map((_, i) => ({ id: `ts${s}-${i}`, pickleStepId: `ps${s}-${i}` })),
      },
    });
  });
  scenarios.forEach((scenario, s) => {
    const attempts = scenario.retriedBefore ? 2 : 1;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      const final = attempt === attempts - 1;
      const startedId = `tcs${s}-${attempt}`;
      const start = 200 + s * 10 + attempt;
      out.push({
        testCaseStarted: {
          id: startedId,
          testCaseId: `tc${s}`,
          attempt,
          timestamp: { seconds: start, nanos: 0 },
        },
      });
      scenario.steps.forEach((step, i) => {
        for (const attachment of final ? (step.attachments ?? []) : []) {
          out.push({
            attachment: {
              testCaseStartedId: startedId,
              testStepId: `ts${s}-${i}`,
              mediaType: attachment.mediaType,
              contentEncoding: attachment.base64 ? 'BASE64' : 'IDENTITY',
              body: attachment.base64 ? Buffer.from(attachment.body).toString('base64') : attachment.body,
            },
          });
        }
        const status = final ? step.status : 'FAILED';
        const result: Record<string, unknown> = { status, duration: { seconds: 0, nanos: 1_000_000 } };
        const message = final ? step.message : 'flaky first attempt';
        if (message !== undefined) result['message'] = message;
        if (final && step.exceptionType !== undefined) {
          result['exception'] = { type: step.exceptionType, message: step.message ?? '' };
        }
        out.push({
          testStepFinished: {
            testCaseStartedId: startedId,
            testStepId: `ts${s}-${i}`,
            testStepResult: result,
            timestamp: { seconds: start, nanos: 0 },
          },
        });
      });
      const ms = final ? (scenario.durationMs ?? 5) : 1;
      out.push({
        testCaseFinished: {
          testCaseStartedId: startedId,
          willBeRetried: !final,
          timestamp: { seconds: start + Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 },
        },
      });
    }
  });
  out.push({ testRunFinished: { success: true, timestamp: { seconds: 300, nanos: 0 } } });
  return out as Envelope[];
}
