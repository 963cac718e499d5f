import { resolve } from 'node:path';
import type { PbxState, Recording } from '../../simulators/pbx/index.ts';
import { type ReplayBinding, replayRecording } from '../../simulators/pbx/index.ts';
import { importRecording } from './import-recording.ts';
import { importedState, loadRecording, scenarioNameOf } from './load-recording.ts';

/**
 * What `simulate --recording FILE` (and `certify-plugin --recording`) starts a PBX with: the state
 * imported from the recording's first sample, so the control plane, the state machine and every
 * face the recording lacks run on its figures, and the replay of its bytes (simulators/pbx/recording/).
 */
export function recordingStartOptions(
  file: string,
  cwd: string,
  timing: 'recorded' | 'none',
  now: number,
): { scenario: PbxState; replay: ReplayBinding; recording: Recording } {
  const recording = loadRecording(resolve(cwd, file));
  const scenario = importRecording(recording, { name: scenarioNameOf(file) });
  return {
    scenario: importedState(scenario, now),
    replay: replayRecording(recording, { timing }),
    recording,
  };
}

/**
 * A recording as a certify-plugin scenario: `recording-<file name>`, described by the target and
 * time it was recorded. Throws (one line) for an unusable file.
 */
export function describeRecording(
  path: string,
  label: string,
): { name: string; description: string; path: string } {
  const recording = loadRecording(path);
  const first = recording.samples[0];
  return {
    name: `recording-${scenarioNameOf(path).replace(/^recording-/, '')}`,
    description: `The recording ${label} of ${recording.target.name} (${first?.recordedAt ?? recording.recordedAt}), replayed byte for byte on the state imported from it.`,
    path,
  };
}
