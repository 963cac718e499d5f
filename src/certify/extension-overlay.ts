import type { PbxControl } from '../../simulators/pbx/control/control-api.ts';

/**
 * The extension scenario's content: what a newer PBX module may add to the agent text without
 * breaking readers (field-line-shapes.md: extensions are additive, FIELD-ADDITIVE-ONLY; keys stay
 * prefix-free, FIELD-KEY-PREFIX-FREE; readers ignore unknown entries). Unknown sections (one whose name starts with a known section's name, so a reader that
 * cuts by prefix instead of by the exact header line trips over it) and extra `key value` lines
 * at the end of the PBX sections whose lines are `key value` facts or runs. No extra key starts
 * with a known key, and no known key starts with an extra one.
 *
 * The shape is the one helper FIELD proposes for the simulator's state (`agentExtensions`); when
 * the lead merges FIELD's branch, adapt {@link applyAgentExtension} (and only it) to the final shape.
 */
export const AGENT_EXTENSION = {
  sections: [
    { name: 'pbx_backups_offsite', lines: ['offsite_targets 0', 'offsite_last_sync -1'] },
    { name: 'pbx_future_feature', lines: ['future_feature_enabled true', 'future_feature_count 3'] },
  ],
  extraLines: {
    pbx: ['zz_extension_flag enabled', 'zz_extension_counter 42'],
    pbx_backups: ['zz_backup_schedule daily 02:00', 'zz_backup_retention_days 30'],
    pbx_accounts: ['zz_guest_accounts 0'],
    pbx_database: ['zz_vacuum_last_run 1623885428016'],
    pbx_java: ['zz_gc_pauses_ms 12'],
  } as Record<string, string[]>,
} as const;

/** How the extension reached the agent text: through the simulator's state, or the answer proxy. */
export type ExtensionMode = 'state' | 'proxy';

/**
 * Puts {@link AGENT_EXTENSION} into the simulator's agent text. Tries the state field first (FIELD's
 * `agentExtensions`, set with a state patch); a simulator that refuses the field (it does not know
 * it yet) gets the extension from the answer proxy instead ({@link extendAgentText}), which the
 * caller then puts in front of the data endpoint.
 */
export async function applyAgentExtension(control: PbxControl): Promise<ExtensionMode> {
  try {
    await control.patchState({ agentExtensions: AGENT_EXTENSION });
    return 'state';
  } catch {
    return 'proxy';
  }
}

/**
 * The agent text with {@link AGENT_EXTENSION} applied: extra lines at the end of their section (before
 * the next header), the unknown sections after `<<<pbx>>>`'s lines and at the very end.
 */
export function extendAgentText(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let current: string | null = null;
  const [firstExtra, ...otherExtras] = AGENT_EXTENSION.sections;
  const closeSection = () => {
    if (current === null) return;
    out.push(...(AGENT_EXTENSION.extraLines[current] ?? []));
    if (current === 'pbx' && firstExtra) out.push(`<<<${firstExtra.name}>>>`, ...firstExtra.lines);
  };
  for (const line of lines) {
    const header = /^<<<([^>]*)>>>$/.exec(line);
    if (header) {
      closeSection();
      current = header[1] ?? null;
    }
    out.push(line);
  }
  closeSection();
  for (const section of otherExtras) out.push(`<<<${section.name}>>>`, ...section.lines);
  return `${out.join('\n')}\n`;
}
