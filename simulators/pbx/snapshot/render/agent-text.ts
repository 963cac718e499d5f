import type { Snapshot } from '../snapshot.ts';
import { renderExtraSections } from './agent-extensions.ts';
import { encodeValue } from './agent-text-encoding.ts';
import { localChecks } from './local-checks.ts';
import { formatLocalLine } from './local-line.ts';
import { renderPbxSections } from './pbx-sections.ts';

/** The agent version the endpoint reports itself as (MON-TEXT-AGENT-VERSION). */
export const AGENT_VERSION = '2.5.0p6';

/**
 * Host labels of `<<<labels:sep(0)>>>` (MON-TEXT-LABELS; MON-UNSPEC-AGENT-HEADER: the keys are the
 * simulator's choice). `cmk/os_family` is Checkmk's own label key for the OS family; `pbx/role`
 * carries the role. Every value is a string.
 */
export const HOST_LABELS: Readonly<Record<string, string>> = Object.freeze({
  'cmk/os_family': 'linux',
  'pbx/role': 'pbx',
});

/**
 * The local-checks header. The spec names the section `<<<local>>>`; Checkmk agents since 2.0
 * write `<<<local:sep(0)>>>` (test-vectors.md: "conventionally"), which keeps the spaces of each
 * line as written. Readers match the section by its name `local`, so both parse alike.
 */
export const LOCAL_HEADER = '<<<local:sep(0)>>>';

/**
 * The snapshot as agent text (`GET /checkmk`, XML-RPC `GetMonitoringData`): agent header, standard
 * Linux sections (absent when the agent script failed), PBX sections, local checks, in this order
 * (MON-TEXT-BLOCK-ORDER, MON-TEXT-AGENT-VERSION, MON-TEXT-AGENT-OS-HOSTNAME, MON-TEXT-LABELS,
 * MON-TEXT-LINUX-SECTIONS, MON-TEXT-LINUX-SCRIPT-FAILURE, MON-LOCAL-LINE-SHAPE). LF line ends, and
 * the text ends with a newline. Extra sections of `agentExtensions` (docs/simulator.md) come after the
 * Linux sections, before `<<<pbx>>>`, and like them are absent when the agent script fails.
 *
 * The header keys are those of Checkmk's own `check_mk` section (MON-UNSPEC-AGENT-HEADER):
 * `Version:`, `AgentOS:`, `Hostname:`. The hostname is value-encoded like the PBX sections, which
 * leaves ordinary host names unchanged.
 */
export function renderAgentText(snapshot: Snapshot): string {
  const state = snapshot.state;
  const header =
    '<<<monitor_agent>>>\n' +
    `Version: ${AGENT_VERSION}\n` +
    'AgentOS: linux\n' +
    `Hostname: ${encodeValue(state.appliance.hostname)}\n` +
    '<<<labels:sep(0)>>>\n' +
    `${JSON.stringify(HOST_LABELS)}\n`;
  const local = localChecks(state, snapshot.takenAt)
    .map((check) => `${formatLocalLine(check)}\n`)
    .join('');
  // Extra sections stand for output of the agent script's plug-ins: they go when the script fails.
  const extra = snapshot.linuxSections === null ? '' : renderExtraSections(state);
  return `${header}${ensureNewline(snapshot.linuxSections ?? '')}${extra}${renderPbxSections(state)}${LOCAL_HEADER}\n${local}`;
}

function ensureNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}
