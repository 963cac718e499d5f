import type { Envelope } from '@cucumber/messages';
import type { Catalog } from '../catalog/catalog.ts';
import { NOT_VERIFIABLE_MEDIA_TYPE } from '../report/attachments.ts';
import { buildModel } from '../report/build-model.ts';
import type { CompatibilityReport } from '../report/model.ts';
import type { FuzzResult, GeneratorOutcome } from './run-fuzz.ts';

/** The pseudo feature file fuzz results are reported under (one per face). */
export function fuzzUri(face: string): string {
  return `fuzz/${face}`;
}

/**
 * The fuzz run in the report model of `verify`: each generator is one scenario, tagged with the
 * clauses whose answers it checks, so the compatibility report, its HTML and JUnit forms show the
 * run per face and per clause. The model is built from the same message stream a Cucumber run
 * produces (`buildModel` reads nothing else), so `src/report` is used as it is.
 */
export function fuzzReport(
  result: FuzzResult,
  catalog: Catalog,
  metadata: { target: string; targetFile: string | null; toolVersion: string; tagExpression: string | null },
): CompatibilityReport {
  return buildModel({
    envelopes: fuzzEnvelopes(result),
    catalog,
    expectedFailures: { path: '(fuzz: no expected failures)', file: null, entries: [] },
    metadata: {
      target: metadata.target,
      targetFile: metadata.targetFile,
      startedAt: result.startedAt,
      finishedAt: result.finishedAt,
      toolVersion: metadata.toolVersion,
      catalogVersion: catalog.version,
      tagExpression: metadata.tagExpression,
    },
  });
}

/** One message stream with a feature per face and a scenario per generator. */
export function fuzzEnvelopes(result: FuzzResult): Envelope[] {
  const out: unknown[] = [
    {
      meta: {
        protocolVersion: '32.3.1',
        implementation: { name: 'pbx-conformance-fuzz', version: '1' },
        runtime: { name: 'node', version: process.version },
        os: { name: process.platform },
        cpu: { name: process.arch },
      },
    },
  ];
  const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  const start = seconds(result.startedAt);
  out.push({ testRunStarted: { timestamp: { seconds: start, nanos: 0 }, id: 'fuzz' } });
  result.generators.forEach((g, s) => {
    const uri = fuzzUri(g.face);
    const tags = g.clauses.map((id, t) => ({
      id: `tag${s}-${t}`,
      name: `@${id}`,
      location: { line: 1, column: 1 },
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
          name: `fuzz ${g.face}`,
          description: '',
          children: [
            {
              scenario: {
                id: `sc${s}`,
                location: { line: s + 2, column: 1 },
                tags,
                keyword: 'Scenario',
                name: g.title,
                description: '',
                steps: [
                  { id: `st${s}`, location: { line: s + 2, column: 1 }, keyword: 'Then ', text: stepText(g) },
                ],
                examples: [],
              },
            },
          ],
        },
      },
    });
    out.push({
      pickle: {
        id: `pk${s}`,
        uri,
        location: { line: s + 2, column: 1 },
        name: g.title,
        language: 'en',
        astNodeIds: [`sc${s}`],
        tags: g.clauses.map((id, t) => ({ name: `@${id}`, astNodeId: `tag${s}-${t}` })),
        steps: [{ id: `ps${s}`, text: stepText(g), astNodeIds: [`st${s}`] }],
      },
    });
    out.push({
      testCase: { id: `tc${s}`, pickleId: `pk${s}`, testSteps: [{ id: `ts${s}`, pickleStepId: `ps${s}` }] },
    });
    out.push({
      testCaseStarted: {
        id: `tcs${s}`,
        testCaseId: `tc${s}`,
        attempt: 0,
        timestamp: { seconds: start, nanos: 0 },
      },
    });
    if (g.status === 'not-verifiable') {
      out.push({
        attachment: {
          testCaseStartedId: `tcs${s}`,
          testStepId: `ts${s}`,
          mediaType: NOT_VERIFIABLE_MEDIA_TYPE,
          contentEncoding: 'IDENTITY',
          body: JSON.stringify({ reason: g.reason ?? 'not verifiable' }),
        },
      });
    }
    const ms = Math.max(0, Math.round(g.durationMs));
    const testStepResult: Record<string, unknown> = {
      status: g.status === 'passed' ? 'PASSED' : g.status === 'failed' ? 'FAILED' : 'SKIPPED',
      duration: { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 },
    };
    if (g.failure) testStepResult['message'] = failureText(g);
    out.push({
      testStepFinished: {
        testCaseStartedId: `tcs${s}`,
        testStepId: `ts${s}`,
        testStepResult,
        timestamp: { seconds: start, nanos: 0 },
      },
    });
    out.push({
      testCaseFinished: {
        testCaseStartedId: `tcs${s}`,
        willBeRetried: false,
        timestamp: { seconds: start + Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 },
      },
    });
  });
  out.push({
    testRunFinished: {
      timestamp: { seconds: seconds(result.finishedAt), nanos: 0 },
      success: true,
      testRunStartedId: 'fuzz',
    },
  });
  return out as Envelope[];
}

function stepText(g: GeneratorOutcome): string {
  return `${g.inputs} generated inputs are answered as the spec says (no crash, no hang, no 5xx)`;
}

/** The failure as the report and the console show it: kind, message, minimal input, replay lines. */
export function failureText(g: GeneratorOutcome): string {
  const f = g.failure;
  if (!f) return '';
  return [
    `${f.kind}: ${f.message}`,
    `minimal input after ${f.shrinks} shrink step(s): ${f.request.bytes.length} bytes to ${f.request.host}:${f.request.port}`,
    `replay: ${f.replayCommand}`,
    `or on the wire: ${f.replayWire}`,
  ].join('\n');
}
