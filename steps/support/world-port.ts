import type { ParsedTarget } from '../../src/core/target-file.ts';
import type { EvidenceAttachment } from '../../src/report/attachments.ts';
import type { PbxTarget } from './target.ts';

/** `worldParameters` of the suite: the target parsed once by `verify`, or nothing for the embedded simulator. */
export interface PbxWorldParameters {
  target?: ParsedTarget;
}

/**
 * What an area's scenario context (the fleet side, the resolver side) needs of the World: the
 * suite's parameters, the PBX target and a place for evidence. The contexts take this port
 * instead of the World that holds them, so the World can keep them without an import cycle.
 */
export interface WorldPort {
  readonly parameters: PbxWorldParameters;
  readonly pbx: PbxTarget;
  evidence(evidence: EvidenceAttachment): void;
}
