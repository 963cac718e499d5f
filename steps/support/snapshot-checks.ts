import assert from 'node:assert/strict';
import { jsonSnapshotDeviations } from './json-snapshot-spec.ts';
import { classifySnapshot, type SnapshotKind } from './snapshot-format.ts';

/**
 * Asserts that `body` is the snapshot `kind`. Agent text also meets what monitoring fetchers
 * demand (test-vectors.md: starts with `<<`, at least 16 bytes); a JSON snapshot must be what the
 * spec fixes for every target (`jsonSnapshotDeviations`: a hierarchical object carrying the listed
 * fields somewhere). The simulator's exact layout (schemas/monitoring-snapshot.schema.json) is left
 * open by MON-UNSPEC-JSON-PATHS / MON-UNSPEC-JSON-FIELDS and is checked by unit tests only.
 */
export function assertSnapshot(body: Buffer, kind: SnapshotKind): void {
  const found = classifySnapshot(body);
  assert.equal(
    found,
    kind,
    `expected the ${kind}, got ${found === 'other' ? 'something else' : `the ${found}`}`,
  );
  if (kind === 'agent text') {
    assert.ok(
      body.length >= 16,
      `agent text of ${body.length} bytes is shorter than the 16 bytes fetchers require`,
    );
    assert.equal(body.subarray(0, 2).toString('latin1'), '<<', 'agent text must start with `<<`');
  }
  if (kind === 'JSON snapshot') {
    const problems = jsonSnapshotDeviations(JSON.parse(body.toString('utf8')));
    assert.deepEqual(problems, [], 'the JSON body is not the JSON snapshot the spec describes');
  }
}

/** Whether `bytes` are valid UTF-8. */
export function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** `text/plain; charset=UTF-8` and `text/plain;charset=utf-8` compare equal. */
export function normaliseMediaType(value: string): string {
  return value
    .split(';')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '')
    .join('; ');
}
