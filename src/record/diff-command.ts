import { resolve } from 'node:path';
import { fetchBody, type Recording, type RecordingSample, renderFaces } from '../../simulators/pbx/index.ts';
import { type DiffFaces, diffFaces, type Finding } from './fidelity-diff.ts';
import type { RecordIo } from './import-command.ts';
import { importRecording, sampleAgentText, sampleJson } from './import-recording.ts';
import { importedState, loadRecording } from './load-recording.ts';

/** The faces a recorded sample holds. */
export function recordedFaces(sample: RecordingSample): DiffFaces {
  const body = (request: string) => {
    const fetch = sample.dataEndpoint?.http.find((candidate) => candidate.request === request);
    return fetch ? fetchBody(fetch).toString('utf8') : undefined;
  };
  const local = sample.xmlrpc?.getMonitoringDataXml?.value as { data?: unknown } | undefined;
  const faces: DiffFaces = {};
  const agentText = sampleAgentText(sample);
  if (agentText !== undefined) faces.agentText = agentText;
  // A target that answers every request with the agent text (the earlier component) offers no XML or JSON.
  const xml = body('GET /xml');
  if (xml !== undefined && /^\s*<(?!<<)/.test(xml)) faces.xml = xml;
  const json = body('GET /json');
  if (json !== undefined && isJson(json)) faces.json = json;
  if (typeof local?.data === 'string') faces.localDocument = local.data;
  return faces;
}

/**
 * The simulator's rendering of the state imported from a sample, with the snapshot taken when the
 * PBX took its own (the JSON snapshot's `snapshotTakenAt`, else the sample's time), so ages and
 * days left are computed from the same moment. Unknown keys and sections are not imported, so they
 * show as extensions the recording has.
 */
export function simulatedFaces(recording: Recording, index: number): DiffFaces {
  const sample = recording.samples[index]!;
  const json = sampleJson(sample);
  const takenAt =
    typeof json?.['snapshotTakenAt'] === 'number' ? json['snapshotTakenAt'] : Date.parse(sample.recordedAt);
  const scenario = importRecording(recording, { name: 'record-diff', sample: index, extensions: false });
  const faces = renderFaces(importedState(scenario, takenAt), takenAt);
  const recorded = recordedFaces(sample);
  // Compare only what the recording has.
  return {
    ...(recorded.agentText === undefined ? {} : { agentText: faces.agentText }),
    ...(recorded.xml === undefined ? {} : { xml: faces.xml }),
    ...(recorded.json === undefined ? {} : { json: faces.json }),
    ...(recorded.localDocument === undefined ? {} : { localDocument: faces.localDocument }),
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export interface DiffResult {
  findings: Finding[];
  defects: number;
}

/** `record diff A` (against the simulator) or `record diff A B` (two recordings), every sample. */
export function diffRecordings(a: Recording, b?: Recording): DiffResult {
  const findings: Finding[] = [];
  a.samples.forEach((sample, index) => {
    const other = b ? (b.samples[index] ?? b.samples.at(-1)) : undefined;
    const left = recordedFaces(sample);
    const right = other ? recordedFaces(other) : simulatedFaces(a, index);
    const found = diffFaces(left, right, { against: b ? 'recording' : 'simulator' });
    findings.push(
      ...(a.samples.length > 1
        ? found.map((f) => ({ ...f, place: `sample ${index + 1}: ${f.place}` }))
        : found),
    );
  });
  return { findings, defects: findings.filter((finding) => finding.class === 'fidelity-defect').length };
}

/**
 * `record diff FILE [OTHER]`: prints every difference with its class and clause, a summary per
 * class, and exits 1 when there is a fidelity defect (0 otherwise, 2 on an unusable file).
 */
export async function diffCommand(
  file: string,
  other: string | undefined,
  options: { json?: boolean },
  io: RecordIo,
): Promise<number> {
  let result: DiffResult;
  try {
    const a = loadRecording(resolve(io.cwd, file));
    const b = other === undefined ? undefined : loadRecording(resolve(io.cwd, other));
    result = diffRecordings(a, b);
  } catch (error) {
    io.stderr.write(`pbx-conformance: record diff: ${(error as Error).message.replace(/\s*\n\s*/g, ' ')}\n`);
    return 2;
  }
  if (options.json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    for (const finding of result.findings) io.stdout.write(`${formatFinding(finding)}\n`);
    const counts = new Map<string, number>();
    for (const finding of result.findings) counts.set(finding.class, (counts.get(finding.class) ?? 0) + 1);
    const summary = ['fidelity-defect', 'changed', 'extension', 'unspecified']
      .map((cls) => `${counts.get(cls) ?? 0} ${cls}`)
      .join(', ');
    io.stdout.write(`${result.findings.length} difference(s): ${summary}\n`);
  }
  return result.defects > 0 ? 1 : 0;
}

export function formatFinding(finding: Finding): string {
  const label = finding.class === 'fidelity-defect' ? 'DEFECT' : finding.class.toUpperCase();
  const values = [
    finding.recorded === undefined ? '' : ` recorded ${JSON.stringify(truncate(finding.recorded))}`,
    finding.simulated === undefined ? '' : ` other ${JSON.stringify(truncate(finding.simulated))}`,
  ].join('');
  return `${label} [${finding.clause}] ${finding.face} ${finding.place}: ${finding.note}${values}`;
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
