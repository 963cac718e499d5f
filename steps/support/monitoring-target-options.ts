/**
 * Optional settings of a target file's `pbx` section for what the spec leaves open about the
 * monitoring module (schemas/target.schema.json): the original names behind the spec's neutral
 * renderings (MON-UNSPEC-NEUTRAL-NAMES) and how the monitoring package is fetched
 * (MKP-UNSPEC-PACKAGE). The embedded simulator uses the neutral names and the defaults.
 */
import type { PbxWorld } from './world.ts';

/** The spec's neutral names that a target file may map to the target's original identifiers. */
export type NeutralName = 'engineUptime';

/** How the harness asks for the monitoring package (MKP-DOWNLOAD). */
export interface PackageDownloadOptions {
  /** The file name in the download URL; the spec's neutral rendering is `pbx_monitoring.mkp`. */
  fileName: string;
  /** `authParam`: the URL carries the XML-RPC user's credentials as XML-RPC calls do. */
  signIn: 'none' | 'authParam';
  /** Extra request headers (a session cookie, …); their values never reach evidence. */
  headers: Record<string, string>;
}

export interface MonitoringTargetOptions {
  /** `<module_id>` of the package URL, when the target file names it. */
  monitoringModuleId?: string;
  monitoringPackage: PackageDownloadOptions;
  originalNames: Record<NeutralName, string>;
}

/** The neutral package file name of the spec (MKP-DOWNLOAD, MON-UNSPEC-NEUTRAL-NAMES). */
export const NEUTRAL_PACKAGE_FILE_NAME = 'pbx_monitoring.mkp';

interface PbxSectionOptions {
  monitoringModuleId?: unknown;
  monitoringPackage?: { fileName?: unknown; signIn?: unknown; headers?: unknown };
  originalNames?: Partial<Record<NeutralName, unknown>>;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The options of a (schema-valid) `pbx` section; defaults for everything it leaves out. */
export function monitoringOptionsOf(pbx: unknown): MonitoringTargetOptions {
  const section = (pbx ?? {}) as PbxSectionOptions;
  const pkg = section.monitoringPackage ?? {};
  const headers = Object.fromEntries(
    Object.entries((pkg.headers ?? {}) as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
  const moduleId = text(section.monitoringModuleId);
  return {
    ...(moduleId ? { monitoringModuleId: moduleId } : {}),
    monitoringPackage: {
      fileName: text(pkg.fileName) ?? NEUTRAL_PACKAGE_FILE_NAME,
      signIn: pkg.signIn === 'authParam' ? 'authParam' : 'none',
      headers,
    },
    originalNames: { engineUptime: text(section.originalNames?.engineUptime) ?? 'engineUptime' },
  };
}

/** The options of the scenario's target: its target file's, or the defaults (embedded simulator). */
export function monitoringTargetOptions(world: PbxWorld): MonitoringTargetOptions {
  return monitoringOptionsOf(world.parameters.target?.description.pbx);
}

/** The name the target uses where the spec writes the neutral `name`. */
export function targetName(world: PbxWorld, name: string): string {
  const names = monitoringTargetOptions(world).originalNames as Record<string, string>;
  return Object.hasOwn(names, name) ? names[name]! : name;
}
