import type { AgentExtensions, PbxControl } from '../../simulators/pbx/index.ts';

/**
 * The extension scenario's content: what a newer PBX module may add to the agent text without
 * breaking readers (field-line-shapes.md: extensions are additive, FIELD-ADDITIVE-ONLY; keys stay
 * prefix-free, FIELD-KEY-PREFIX-FREE; readers ignore unknown entries). Unknown sections, one of
 * them named so that it starts with a known section's name (a reader that cuts by prefix instead
 * of by the exact header line trips over it), and extra `key value` lines at the end of the PBX
 * sections whose lines are `key value` facts. Listing sections (backups, channels, peers,
 * registrations, modules) get none: there every line counts as a run, a channel or a peer.
 * No extra key starts with a known key, and no known key starts with an extra one.
 */
export const AGENT_EXTENSION: AgentExtensions = {
  sections: [
    { name: 'pbx_backups_offsite', lines: ['offsite_targets 0', 'offsite_last_sync -1'] },
    { name: 'pbx_future_feature', lines: ['future_feature_enabled true', 'future_feature_count 3'] },
  ],
  extraLines: {
    pbx: ['zz_extension_flag enabled', 'zz_extension_counter 42'],
    pbx_accounts: ['zz_guest_policy open'],
    pbx_database: ['zz_vacuum_last_run 1623885428016'],
    pbx_db_connections: [],
    pbx_java: ['zz_gc_pauses_ms 12'],
  },
};

/**
 * Puts {@link AGENT_EXTENSION} into the simulator's agent text through its state
 * (`agentExtensions`, set with a state patch; the simulator checks the keys stay prefix-free).
 */
export async function applyAgentExtension(control: PbxControl): Promise<void> {
  await control.patchState({ agentExtensions: AGENT_EXTENSION });
}
