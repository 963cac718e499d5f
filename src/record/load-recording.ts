import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { PbxState, Recording } from '../../simulators/pbx/index.ts';
import { scenarioState } from '../../simulators/pbx/index.ts';
import { PROJECT_ROOT } from '../core/project-paths.ts';
import { joinProblems, strictValidator } from '../core/strict-schema.ts';
import type { ImportedScenario } from './import-recording.ts';
import { findInconsistency } from './recording-consistency.ts';

const RECORDING_SCHEMA = join(PROJECT_ROOT, 'schemas', 'pbx-recording.schema.json');

/** A recording file that cannot be used (unreadable, not JSON, not the schema, inconsistent): exit 2. */
export class RecordingFileError extends Error {
  constructor(file: string, message: string) {
    super(`recording ${file}: ${message}`);
    this.name = 'RecordingFileError';
  }
}

/**
 * Reads and validates a recording: the schema (schemas/pbx-recording.schema.json), then each
 * sample against its own bytes (recording-consistency.ts), naming the JSON path of the first
 * inconsistency.
 */
export function loadRecording(file: string): Recording {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new RecordingFileError(file, `cannot be read (${reason})`);
  }
  const verdict = strictValidator(RECORDING_SCHEMA).validate(value);
  if (!verdict.ok)
    throw new RecordingFileError(
      file,
      `does not match schemas/pbx-recording.schema.json: ${joinProblems(verdict.problems)}`,
    );
  const recording = value as Recording;
  const inconsistency = findInconsistency(recording);
  if (inconsistency)
    throw new RecordingFileError(file, `inconsistent at ${inconsistency.path}: ${inconsistency.problem}`);
  return recording;
}

/** A scenario name from a file name: `lab-pbx.json` → `lab-pbx`. */
export function scenarioNameOf(file: string): string {
  const name = basename(file)
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return /^[a-z0-9]/.test(name) ? name : `recording-${name || 'imported'}`;
}

/**
 * The state an imported scenario gives at `now`, through the simulator's own scenario loader
 * (`scenarioState` of its front door: the schema check and the overlay on the default state).
 */
export function importedState(scenario: ImportedScenario, now: number): PbxState {
  return scenarioState(scenario, now, `'${scenario.name}'`);
}
