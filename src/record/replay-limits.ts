/**
 * What `verify --target` cannot verify against a replayed recording (`simulate --recording`,
 * docs/recording.md): clauses whose scenarios set a state (through the control plane or a
 * maintenance command) and expect the data endpoint or XML-RPC to follow it. A replay serves
 * the recorded bytes whatever the state, so these are the harness's limits, never the target's
 * faults: on a target whose file says `replay`, their scenarios report *not verifiable* with
 * the reason below (steps/support/hooks.ts), and `verify` against a faithful recording exits 0.
 * Measured against a replay of `healthy` (issue 29, item 9): these 31 failed, every other MON,
 * XMLRPC, MAINT and FIELD clause passed.
 */

const SERVES = 'the target replays a recording: its data endpoint and XML-RPC serve the recorded bytes';
const FIGURES = `${SERVES}, which a state set through the control plane (RAID, backups, providers, peers, channels, memory, updates, names) does not change`;
const CACHE = `${SERVES}, which a snapshot lifetime set through the control plane, and the clock moving past it, do not change`;
const COMMAND_EFFECT = `${SERVES}, which a maintenance command's effect (calls hung up, backups deleted, a new version, a smaller CDR) does not change`;

/** Clause id → why its scenarios are not verifiable against a replayed recording. */
export const REPLAY_NOT_VERIFIABLE: Readonly<Record<string, string>> = {
  'MON-CACHE-DEFAULT': CACHE,
  'MON-CACHE-CONFIGURABLE': CACHE,
  'MON-TEXT-LINUX-SCRIPT-FAILURE': FIGURES,
  'MON-TEXT-PBX': FIGURES,
  'MON-TEXT-PBX-RAID': FIGURES,
  'MON-TEXT-PBX-BACKUPS': FIGURES,
  'MON-TEXT-PBX-SIP-PROVIDER': FIGURES,
  'MON-LOCAL-BACKUP-SERVICES': FIGURES,
  'MON-XML-RAID': FIGURES,
  'MON-XML-CHANNELS-ACTIVE': FIGURES,
  'MON-JSON-SENTINEL': FIGURES,
  'MON-UTF8': FIGURES,
  'XMLRPC-DISK-IS-RAM': FIGURES,
  'XMLRPC-DISK-THRESHOLDS': FIGURES,
  'XMLRPC-UPDATE-VALUE': FIGURES,
  'XMLRPC-UPDATE-MAJOR': FIGURES,
  'XMLRPC-UPDATE-MINOR': FIGURES,
  'XMLRPC-PHONE-STATUS': FIGURES,
  'XMLRPC-BACKUP-ENTRIES': FIGURES,
  'XMLRPC-BACKUP-FAILED': FIGURES,
  'XMLRPC-BACKUP-ERROR-TEXT': FIGURES,
  'XMLRPC-PROVIDER-STATUS': FIGURES,
  'XMLRPC-ENDPOINT': FIGURES,
  'MAINT-EXEC-ASYNC': COMMAND_EFFECT,
  'MAINT-PARAM-VERSION': COMMAND_EFFECT,
  'MAINT-PARAM-CONFIRMED': COMMAND_EFFECT,
  'MAINT-POST-ACCEPTED': COMMAND_EFFECT,
  'FIELD-PBX-KEYS': FIGURES,
  'FIELD-BACKUP-LINE': FIGURES,
  'FIELD-PEERS-SUMMARY': FIGURES,
  'FIELD-ADDITIVE-ONLY': FIGURES,
};

/**
 * The reason a scenario with these tags (`@MON-UTF8`, …) is not verifiable against a replayed
 * recording, or `undefined` when it is (a scenario citing several listed clauses gets the
 * reason of the first).
 */
export function replayLimit(tags: readonly string[]): string | undefined {
  for (const tag of tags) {
    const reason = REPLAY_NOT_VERIFIABLE[tag.replace(/^@/, '')];
    if (reason !== undefined) return reason;
  }
  return undefined;
}
