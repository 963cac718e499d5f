import { isIPv4 } from 'node:net';
import {
  describeValue,
  requireArray,
  requireBoolean,
  requireInteger,
  requireObject,
  requireOneOf,
} from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import { SNAPSHOT_FORMATS } from '../snapshot/snapshot.ts';
import { HostEntryError, parseHostEntry } from '../state/host-allow-list.ts';
import type { SnapshotFormat } from '../state/types.ts';
import type { MonitoringHostEntry } from './control-api.ts';

/**
 * Allowed ranges of the monitoring settings. The spec does not say how default format, cache
 * lifetime and port are configured or what ranges they allow (MON-UNSPEC-CONFIG); these are the
 * simulator's choices, listed in docs/simulator.md ("Control plane").
 */
export const MONITORING_LIMITS = {
  /** 0 asks the OS for an ephemeral port (tests); 6556 is the default (MON-PORT-DEFAULT). */
  port: { min: 0, max: 65_535 },
  /** 0 turns the cache off (every request takes a fresh snapshot); at most one day. */
  cacheLifetimeMs: { min: 0, max: 86_400_000 },
  /** How long the endpoint waits for an HTTP request line (MON-UNSPEC-RAW-DETECTION). */
  rawGraceMs: { min: 0, max: 60_000 },
  /** Entries of the monitoring-hosts list. */
  maxHosts: 1024,
  /** XML-RPC method names are `<instance>.<command>` (XMLRPC-INSTANCE-RENAME): a plain token. */
  instanceName: /^[A-Za-z0-9_]{1,64}$/,
} as const;

/**
 * The monitoring-hosts list (MON-AUTH-HOSTS-CIDR: IPv4 addresses or CIDR ranges, each active or
 * not; `active` defaults to true). Entries are read by the endpoint's own parser, so what the
 * control plane accepts is exactly what the endpoint can match; IPv6 entries, host names and
 * malformed ranges are refused with the offending entry in the message.
 */
export function checkMonitoringHosts(value: unknown, field = 'hosts'): MonitoringHostEntry[] {
  const list = requireArray(value, field, MONITORING_LIMITS.maxHosts);
  return list.map((item, index) => {
    const at = `${field}[${index}]`;
    const entry = requireObject(item, at, ['entry', 'active']);
    if (typeof entry['entry'] !== 'string' || entry['entry'].length > 64) {
      throw new ControlInputError(
        `${at}.entry must be an IPv4 address or CIDR range such as 192.0.2.0/24, got ${describeValue(entry['entry'])}`,
      );
    }
    try {
      parseHostEntry(entry['entry']);
    } catch (error) {
      if (error instanceof HostEntryError) throw new ControlInputError(`${at}.entry: ${error.message}`);
      throw error;
    }
    const active = entry['active'] === undefined ? true : requireBoolean(entry['active'], `${at}.active`);
    return { entry: entry['entry'], active };
  });
}

export function checkPort(value: unknown, field = 'port'): number {
  return requireInteger(value, field, MONITORING_LIMITS.port.min, MONITORING_LIMITS.port.max);
}

export function checkCacheLifetime(value: unknown, field = 'ms'): number {
  return requireInteger(
    value,
    field,
    MONITORING_LIMITS.cacheLifetimeMs.min,
    MONITORING_LIMITS.cacheLifetimeMs.max,
  );
}

export function checkRawGrace(value: unknown, field = 'rawGraceMs'): number {
  return requireInteger(value, field, MONITORING_LIMITS.rawGraceMs.min, MONITORING_LIMITS.rawGraceMs.max);
}

export function checkInstanceName(value: unknown, field = 'name'): string {
  if (typeof value !== 'string' || !MONITORING_LIMITS.instanceName.test(value)) {
    throw new ControlInputError(
      `${field} must be 1 to 64 characters of A-Z, a-z, 0-9 and _, got ${describeValue(value)}`,
    );
  }
  return value;
}

export function checkDefaultFormat(value: unknown, field = 'format'): SnapshotFormat {
  return requireOneOf(value, field, SNAPSHOT_FORMATS);
}

/** The listen address of the endpoint: an IPv4 address (MON-IPV4-ONLY). */
export function checkListenHost(value: unknown, field = 'host'): string {
  if (typeof value !== 'string' || !isIPv4(value)) {
    throw new ControlInputError(`${field} must be an IPv4 address, got ${describeValue(value)}`);
  }
  return value;
}
