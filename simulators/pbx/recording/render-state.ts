import { renderFormat, renderLocalDocumentCached } from '../snapshot/render/render-format.ts';
import { snapshotOf } from '../snapshot/snapshot.ts';
import type { PbxState } from '../state/types.ts';

/** Every face of the data endpoint and the `local` document, rendered from one state. */
export interface RenderedFaces {
  agentText: string;
  xml: string;
  json: string;
  localDocument: string;
}

/**
 * Renders a state as the simulator serves it, with the snapshot taken at `takenAt` (virtual
 * time): what `record diff` compares a recording with (MON-FORMATS-SAME-SNAPSHOT: one snapshot
 * for every format).
 */
export function renderFaces(state: PbxState, takenAt: number): RenderedFaces {
  const snapshot = snapshotOf(state, takenAt);
  const faults = { renderError: false, jsonError: false };
  return {
    agentText: renderFormat(snapshot, 'checkmk', faults).toString('utf8'),
    xml: renderFormat(snapshot, 'xml', faults).toString('utf8'),
    json: renderFormat(snapshot, 'json', faults).toString('utf8'),
    localDocument: renderLocalDocumentCached(snapshot),
  };
}
