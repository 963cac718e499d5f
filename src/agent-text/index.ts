/**
 * The project's agent-text parser: Checkmk section grammar, local-check lines and the PBX
 * sections in the line shapes of the earlier monitoring component (docs/agent-text-grammar.md). Offered to plug-in vendors too.
 */
export { decodeToken, decodeValue } from './decode-value.ts';
export {
  type AgentSection,
  type AgentText,
  type AgentTextProblem,
  parseAgentText,
  sectionLines,
} from './parse-agent-text.ts';
export { type LocalCheckLine, type LocalMetric, parseLocalLine } from './parse-local-line.ts';
export {
  type BackupRunLine,
  type ModuleLine,
  type NamedCount,
  type PbxSectionsData,
  type PeerLine,
  type PeerSummary,
  parsePbxSections,
  peerLine,
  type RegistrationLine,
} from './parse-pbx-sections.ts';
