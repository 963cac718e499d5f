import { stripVTControlCharacters } from 'node:util';
import type { Envelope, Pickle, TestStepResult, Timestamp } from '@cucumber/messages';
import { FIXTURE_ERROR_NAME } from '../core/fixture-error-name.ts';
import {
  EVIDENCE_MEDIA_TYPE,
  type EvidenceAttachment,
  MAX_EVIDENCE_CHARS,
  NOT_VERIFIABLE_MEDIA_TYPE,
} from './attachments.ts';
import type { ScenarioFailure, ScenarioResult, ScenarioStatus } from './model.ts';

/** A scenario's final attempt together with the tags it carries (for mapping onto clauses). */
export interface TaggedScenarioResult {
  tags: string[];
  result: ScenarioResult;
}

/** The version of Cucumber that wrote the messages (its `meta` message), or null. */
export function cucumberVersion(envelopes: readonly Envelope[]): string | null {
  for (const envelope of envelopes) {
    if (envelope.meta) return envelope.meta.implementation.version ?? null;
  }
  return null;
}

/** Worst first: the scenario status is the worst of its steps' statuses, as in Cucumber. */
const STATUS_RANK: Record<string, number> = {
  FAILED: 6,
  AMBIGUOUS: 5,
  UNDEFINED: 4,
  PENDING: 3,
  SKIPPED: 2,
  PASSED: 1,
  UNKNOWN: 0,
};

/**
 * Reads Cucumber's message stream into one result per executed scenario: its final attempt's
 * status (retried attempts are ignored), duration, first failing step, evidence attachments and
 * not-verifiable reason. Pure; unknown or malformed attachments never throw.
 */
export function collectScenarioResults(envelopes: readonly Envelope[]): TaggedScenarioResult[] {
  const pickles = new Map<string, Pickle>();
  const stepKeywords = new Map<string, string>();
  const scenarioLines = new Map<string, number>();
  const testCases = new Map<string, NonNullable<Envelope['testCase']>>();
  const hooks = new Map<string, NonNullable<Envelope['hook']>>();
  const started = new Map<string, NonNullable<Envelope['testCaseStarted']>>();
  const finished = new Map<string, NonNullable<Envelope['testCaseFinished']>>();
  const stepResults = new Map<string, Array<{ testStepId: string; result: TestStepResult }>>();
  const attachments = new Map<string, Array<NonNullable<Envelope['attachment']>>>();

  for (const envelope of envelopes) {
    if (envelope.gherkinDocument?.feature) {
      indexAst(envelope.gherkinDocument.feature.children, stepKeywords, scenarioLines);
    } else if (envelope.pickle) pickles.set(envelope.pickle.id, envelope.pickle);
    else if (envelope.testCase) testCases.set(envelope.testCase.id, envelope.testCase);
    else if (envelope.hook) hooks.set(envelope.hook.id, envelope.hook);
    else if (envelope.testCaseStarted) started.set(envelope.testCaseStarted.id, envelope.testCaseStarted);
    else if (envelope.testCaseFinished)
      finished.set(envelope.testCaseFinished.testCaseStartedId, envelope.testCaseFinished);
    else if (envelope.testStepFinished) {
      const { testCaseStartedId, testStepId, testStepResult } = envelope.testStepFinished;
      push(stepResults, testCaseStartedId, { testStepId, result: testStepResult });
    } else if (envelope.attachment?.testCaseStartedId) {
      push(attachments, envelope.attachment.testCaseStartedId, envelope.attachment);
    }
  }

  const results: TaggedScenarioResult[] = [];
  for (const [startedId, start] of started) {
    const end = finished.get(startedId);
    if (end?.willBeRetried) continue;
    const testCase = testCases.get(start.testCaseId);
    const pickle = testCase ? pickles.get(testCase.pickleId) : undefined;
    if (!testCase || !pickle) continue;
    const steps = stepResults.get(startedId) ?? [];
    const worst = steps.reduce<TestStepResult | undefined>(
      (acc, step) => (acc === undefined || rank(step.result) > rank(acc) ? step.result : acc),
      undefined,
    );
    // A scenario that never finished (a crashed worker) or has no step result is `unknown`.
    let status: ScenarioStatus = end && worst ? (worst.status.toLowerCase() as ScenarioStatus) : 'unknown';
    const fixtureReasons = steps.flatMap((step) =>
      step.result.exception?.type === FIXTURE_ERROR_NAME
        ? [plainText(step.result.exception.message ?? 'a fixture failed')]
        : [],
    );
    // The harness could not set up its own fixture: not the target's failure (steps/support/fixture-error.ts).
    if (status === 'failed' && fixtureReasons.length > 0 && worstFailuresAreFixtures(steps))
      status = 'skipped';
    const result: ScenarioResult = {
      name: pickle.name,
      uri: pickle.uri,
      line:
        scenarioLines.get(pickle.astNodeIds[pickle.astNodeIds.length - 1] ?? '') ??
        pickle.location?.line ??
        0,
      status,
      durationMs: end ? durationMs(start.timestamp, end.timestamp) : 0,
      evidence: [],
    };
    const failure = findFailure(status, steps, testCase, pickle, stepKeywords, hooks);
    if (failure) result.failure = failure;
    const reasons: string[] = status === 'skipped' ? fixtureReasons.map((r) => `harness fixture: ${r}`) : [];
    for (const attachment of attachments.get(startedId) ?? []) {
      const body = decodeBody(attachment);
      if (attachment.mediaType === EVIDENCE_MEDIA_TYPE) result.evidence.push(toEvidence(body));
      else if (attachment.mediaType === NOT_VERIFIABLE_MEDIA_TYPE) reasons.push(toReason(body));
    }
    if (reasons.length > 0) result.notVerifiableReason = [...new Set(reasons)].join('; ');
    results.push({ tags: pickle.tags.map((tag) => tag.name), result });
  }
  return results;
}

/** Whether every failed step of the scenario failed with a FixtureError (one real failure keeps it failed). */
function worstFailuresAreFixtures(steps: ReadonlyArray<{ result: TestStepResult }>): boolean {
  return steps
    .filter((step) => step.result.status === 'FAILED')
    .every((step) => step.result.exception?.type === FIXTURE_ERROR_NAME);
}

type FeatureChildren = NonNullable<NonNullable<Envelope['gherkinDocument']>['feature']>['children'];

function indexAst(
  children: FeatureChildren,
  keywords: Map<string, string>,
  lines: Map<string, number>,
): void {
  for (const child of children) {
    if (child.rule) indexAst(child.rule.children, keywords, lines);
    const container = child.background ?? child.scenario;
    for (const step of container?.steps ?? []) keywords.set(step.id, step.keyword.trim());
    if (!child.scenario) continue;
    lines.set(child.scenario.id, child.scenario.location.line);
    for (const examples of child.scenario.examples) {
      for (const row of examples.tableBody) lines.set(row.id, row.location.line);
    }
  }
}

function findFailure(
  status: ScenarioStatus,
  steps: ReadonlyArray<{ testStepId: string; result: TestStepResult }>,
  testCase: NonNullable<Envelope['testCase']>,
  pickle: Pickle,
  keywords: Map<string, string>,
  hooks: Map<string, NonNullable<Envelope['hook']>>,
): ScenarioFailure | undefined {
  if (status === 'passed' || status === 'skipped') return undefined;
  const failed = steps.find((step) => step.result.status.toLowerCase() === status);
  if (!failed) return { step: '(scenario)', message: `the scenario ended with status ${status}` };
  const testStep = testCase.testSteps.find((step) => step.id === failed.testStepId);
  let stepText = '(unknown step)';
  if (testStep?.pickleStepId) {
    const pickleStep = pickle.steps.find((step) => step.id === testStep.pickleStepId);
    if (pickleStep) {
      const keyword = keywords.get(pickleStep.astNodeIds[0] ?? '');
      stepText = keyword ? `${keyword} ${pickleStep.text}` : pickleStep.text;
    }
  } else if (testStep?.hookId) {
    const hook = hooks.get(testStep.hookId);
    stepText = `hook ${hook?.name ?? hook?.sourceReference.uri ?? testStep.hookId}`;
  }
  // The thrown message, not Cucumber's text with the stack trace into the harness.
  const message = failed.result.exception?.message ?? failed.result.message ?? defaultMessage(status);
  return { step: stepText, message: truncate(plainText(message)) };
}

/**
 * Text the harness wrote for people (assertion messages, reasons) without terminal control
 * sequences: node:assert colours its diff (`\u001b[32m+ actual`) when stderr is a colour
 * terminal, and none of the three reports is one. Evidence (the target's bytes) is never touched.
 */
export function plainText(text: string): string {
  return stripVTControlCharacters(text);
}

function defaultMessage(status: ScenarioStatus): string {
  switch (status) {
    case 'undefined':
      return 'no step definition matches this step';
    case 'ambiguous':
      return 'several step definitions match this step';
    case 'pending':
      return 'the step is pending (not implemented)';
    default:
      return `the step ended with status ${status}`;
  }
}

function rank(result: TestStepResult): number {
  return STATUS_RANK[result.status] ?? 0;
}

function durationMs(from: Timestamp, to: Timestamp): number {
  const ms = (to.seconds - from.seconds) * 1000 + (to.nanos - from.nanos) / 1e6;
  return Math.max(0, Math.round(ms));
}

function decodeBody(attachment: NonNullable<Envelope['attachment']>): string {
  return attachment.contentEncoding === 'BASE64'
    ? Buffer.from(attachment.body, 'base64').toString('utf8')
    : attachment.body;
}

function toEvidence(body: string): EvidenceAttachment {
  const data = parseObject(body);
  if (!data || typeof data['exchange'] !== 'string') {
    return { exchange: '(unreadable evidence attachment)', response: truncate(body) };
  }
  const evidence: EvidenceAttachment = { exchange: truncate(data['exchange']) };
  if (typeof data['request'] === 'string') evidence.request = truncate(data['request']);
  if (typeof data['response'] === 'string') evidence.response = truncate(data['response']);
  const details = data['details'];
  if (typeof details === 'object' && details !== null && !Array.isArray(details)) {
    const serialized = JSON.stringify(details);
    evidence.details =
      serialized.length <= MAX_EVIDENCE_CHARS
        ? (details as Record<string, unknown>)
        : { cut: truncate(serialized) };
  }
  return evidence;
}

function toReason(body: string): string {
  const data = parseObject(body);
  const reason = data?.['reason'];
  return truncate(plainText(typeof reason === 'string' && reason.length > 0 ? reason : body));
}

function parseObject(body: string): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(body);
    return typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function truncate(text: string): string {
  return text.length <= MAX_EVIDENCE_CHARS ? text : `${text.slice(0, MAX_EVIDENCE_CHARS)}… (cut)`;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
