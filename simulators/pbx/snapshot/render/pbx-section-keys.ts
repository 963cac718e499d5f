import type { KeyValueSection } from '../../state/types.ts';

/** The PBX section headers in output order; headers never carry options (test-vectors.md). */
export const PBX_SECTION_NAMES = [
  'pbx',
  'pbx_backups',
  'pbx_channels',
  'pbx_calls',
  'pbx_accounts',
  'pbx_peers',
  'pbx_sip_provider',
  'pbx_modules',
  'pbx_database',
  'pbx_db_connections',
  'pbx_java',
] as const;

/**
 * The keys of the earlier monitoring component in the key/value sections, in the order of
 * field-line-shapes.md (FIELD-PBX-KEYS, FIELD-ACCOUNTS-LINES, FIELD-DATABASE-CONNECTIONS,
 * FIELD-JAVA-LINES). `raid_status` and `raid_diagnosis` appear only with a configured RAID.
 */
export const FIELD_KEYS: Readonly<
  Record<'pbx' | 'pbx_accounts' | 'pbx_database' | 'pbx_java', readonly string[]>
> = {
  pbx: [
    'appliance_type',
    'appliance_serial_number',
    'appliance_max_users',
    'appliance_max_connections',
    'system_manufacturer',
    'system_product_name',
    'pbx_version',
    'pbx_build_date',
    'owner',
    'license_max_users',
    'raid_status',
    'raid_diagnosis',
    'password_check',
    'attack_detection',
    'blacklisted_hosts',
    'whitelisted_hosts',
    'autoprovisioning',
    'accept_all_macs',
    'automated_firmware_updates',
    'sip_status_localhost',
    'known_phones',
    'online_phones',
    'ip_changed_phones',
    'engine_uptime',
    'debug_mode',
  ],
  pbx_accounts: [
    'total_accounts',
    'admin_accounts',
    'active_accounts',
    'available_accounts',
    'ringing_accounts',
    'unavailable_accounts',
  ],
  pbx_database: ['opened_connections', 'closed_connections', 'active_connections', 'idle_connections'],
  pbx_java: [
    'java_vm_name',
    'java_vm_vendor',
    'java_vm_version',
    'java_version',
    'java_heap_memory',
    'java_non_heap_memory',
    'java_max_memory',
  ],
};

/**
 * The spec's newer content of the key/value sections, written after the earlier keys as
 * additional `key value` lines (FIELD-ADDITIVE-ONLY). No key here starts with an earlier key and
 * no key of a section is a prefix of another (FIELD-KEY-PREFIX-FREE; checked by a unit test).
 * `raid_level`, `raid_state` and `raid_devices` appear only with a configured RAID.
 */
export const NEWER_KEYS: Readonly<Record<KeyValueSection, readonly string[]>> = {
  pbx: [
    'hostname',
    'uptime_linux_ms',
    'license_state',
    'license_valid_until',
    'update_contract_valid_until',
    'update_available',
    'update_kind',
    'update_latest_version',
    'sip_flood_protection',
    'provisioned_phones',
    'web_sessions',
    'app_connections',
    'calls_connected',
    'calls_parked',
    'calls_conference',
    'rtp_active_channels',
    'rtp_jitter_avg_ms',
    'rtp_jitter_median_ms',
    'rtp_jitter_max_ms',
    'rtp_packet_loss_avg_percent',
    'rtp_packet_loss_median_percent',
    'rtp_packet_loss_max_percent',
    'rtp_rtt_avg_ms',
    'rtp_rtt_median_ms',
    'rtp_rtt_max_ms',
    'rtp_mos_avg',
    'rtp_mos_median',
    'rtp_mos_min',
    'raid_level',
    'raid_state',
    'raid_devices',
  ],
  pbx_accounts: [],
  pbx_database: ['database_size', 'cdr_size'],
  pbx_db_connections: [
    'total_connections',
    'active_connections',
    'idle_connections',
    'idle_in_transaction_connections',
    'max_connections',
    'by_app',
    'by_db',
  ],
  pbx_java: [],
};

/** Every key the simulator writes in a key/value section (earlier keys, then newer ones). */
export function sectionKeys(section: KeyValueSection): string[] {
  const earlier = (FIELD_KEYS as Record<string, readonly string[] | undefined>)[section] ?? [];
  return [...earlier, ...NEWER_KEYS[section]];
}
