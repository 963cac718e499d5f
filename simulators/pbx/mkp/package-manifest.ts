import { toPythonLiteral } from './python-literal.ts';

/**
 * The manifest of a Checkmk extension package, as Checkmk 2.x's package tool defines it: the
 * `info` member (a Python literal) and `info.json` (the same as compact JSON, "for external
 * tools"). `files` maps each package part (e.g. `cmk_addons_plugins`, installed to
 * `~/local/lib/python3/cmk_addons/plugins`) to the paths inside that part's `<part>.tar`.
 */
export interface PackageManifest {
  title: string;
  /** Letters, digits, `-`, `_`; starts with a letter or `_`. */
  name: string;
  description: string;
  version: string;
  'version.packaged': string;
  'version.min_required': string;
  'version.usable_until': string | null;
  author: string;
  download_url: string;
  files: Record<string, string[]>;
}

/** File name the package is served under (MKP-DOWNLOAD). */
export const PACKAGE_FILE_NAME = 'pbx_monitoring.mkp';

/**
 * What the simulator's package says about itself (MKP-UNSPEC-PACKAGE: the content and manifest
 * are the simulator's choice). The check plug-ins use the agent-based API v2, which Checkmk has
 * since 2.3.0.
 */
export const PACKAGE_INFO = {
  name: 'pbx_monitoring',
  title: 'PBX monitoring (simulated PBX)',
  version: '1.0.0',
  author: 'pbx-conformance simulator',
  description:
    'Check plug-ins for the PBX sections of the monitoring module (<<<pbx>>> to <<<pbx_java>>>): ' +
    'PBX Info, Phones, SIP Health, Security, Server Traffic, RTP Quality, Debug Mode, RAID, Accounts, ' +
    'Channels, Backup <target>, Peer <name>, Trunk <URI>, Modules, Database and Java.',
  minRequired: '2.3.0',
  packaged: '2.3.0',
} as const;

/** The manifest of the simulator's package for the given part → files map. */
export function packageManifest(files: Record<string, string[]>): PackageManifest {
  return {
    title: PACKAGE_INFO.title,
    name: PACKAGE_INFO.name,
    description: PACKAGE_INFO.description,
    version: PACKAGE_INFO.version,
    'version.packaged': PACKAGE_INFO.packaged,
    'version.min_required': PACKAGE_INFO.minRequired,
    'version.usable_until': null,
    author: PACKAGE_INFO.author,
    download_url: '',
    files,
  };
}

/** The `info` member: the manifest as a Python literal, keys sorted, ending in a newline. */
export function manifestInfo(manifest: PackageManifest): string {
  return `${toPythonLiteral({ ...manifest })}\n`;
}

/** The `info.json` member: the manifest as compact JSON, keys in Checkmk's field order. */
export function manifestJson(manifest: PackageManifest): string {
  return JSON.stringify(manifest);
}
