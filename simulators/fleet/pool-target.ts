import { addressAt, parseAddressPool } from './address-pool.ts';

/** `fleet.pool` of a target file (schemas/target.schema.json): a pooled fleet, described compactly. */
export interface PoolSection {
  count: number;
  /** `first-last`: PBX n (1-based) on the n-th address. */
  addresses: string;
  ports: { data: number; web: number };
  /** Sites of PBX 1, 2, … by name; beyond them `sitePattern` with `{n}`. */
  namedSites?: string[];
  sitePattern: string;
  controlUrlPattern: string;
}

/** What `pbxOfPool` reads and rewrites of a target file. */
export interface PooledTarget {
  pbx: { webUrl: string; controlUrl: string; monitoring: { host: string; port: number } };
  fleet?: { pool?: PoolSection };
}

/**
 * The target file with its `pbx` section moved from PBX 1 to PBX `index` (1-based) of the pooled
 * fleet it describes (issue 22): the pool's `index`-th address on the same ports, the control URL
 * pattern with that PBX's site. Everything else (credentials, the fleet) stays: every PBX of a
 * pooled fleet starts alike. Throws `Error` with a one-line reason.
 */
export function pbxOfPool<T extends PooledTarget>(target: T, index: number): T {
  const pool = target.fleet?.pool;
  if (!pool) throw new Error('the target file has no fleet.pool: its fleet is not pooled');
  if (!Number.isInteger(index) || index < 1 || index > pool.count)
    throw new Error(`PBX ${index} is not in the fleet: expected 1 to ${pool.count}`);
  const siteId = pool.namedSites?.[index - 1] ?? pool.sitePattern.replace('{n}', String(index));
  const host = addressAt(parseAddressPool(pool.addresses), index - 1);
  return {
    ...target,
    pbx: {
      ...target.pbx,
      webUrl: `http://${host}:${pool.ports.web}`,
      monitoring: { ...target.pbx.monitoring, host, port: pool.ports.data },
      controlUrl: pool.controlUrlPattern.replace('{siteId}', encodeURIComponent(siteId)),
    },
  };
}
