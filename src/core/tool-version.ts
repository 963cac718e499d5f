import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CATALOG_PATH, PACKAGE_ROOT } from './project-paths.ts';

/**
 * The version policy of the package (issue 13). Three things move independently:
 * - the CLI: semantic versioning of package.json `version` (commands, options, exit codes, report
 *   formats; a clause judged differently is at least a minor version);
 * - the clause catalog: features/clauses.yaml, named by its format `version` and a fingerprint of
 *   its content (SHA-256, first 12 hex digits), since the catalog is a copy of the spec
 *   repository's catalog and carries no revision number of its own;
 * - the spec revisions judged: the specs carry no revision number either, so package.json
 *   `specRevisions` records the SHA-256 fingerprint of each spec file the catalog cites, as it was
 *   when the catalog was copied (test/package/version-policy.test.ts checks both against the
 *   spec repository when it is present).
 */
export interface VersionInfo {
  tool: string;
  catalog: { format: number | null; fingerprint: string };
  specRevisions: Record<string, string>;
}

const packageJson: Record<string, unknown> = (() => {
  const pkg: unknown = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
  return typeof pkg === 'object' && pkg !== null ? (pkg as Record<string, unknown>) : {};
})();

/** The version of this tool, from package.json (reported in every compatibility report). */
export const TOOL_VERSION: string =
  typeof packageJson['version'] === 'string' ? packageJson['version'] : '0.0.0';

/** `sha256:` and the first 12 hex digits of the SHA-256 of `text`: the fingerprint of a catalog or spec. */
export function fingerprint(text: string | Buffer): string {
  return `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}

/** The three versions, read from package.json and the shipped catalog. */
export function versionInfo(catalogPath = DEFAULT_CATALOG_PATH): VersionInfo {
  const catalogText = readFileSync(catalogPath, 'utf8');
  const format = /^version:\s*(\d+)\s*$/m.exec(catalogText);
  const recorded = packageJson['specRevisions'];
  const specRevisions: Record<string, string> = {};
  if (typeof recorded === 'object' && recorded !== null) {
    for (const [spec, revision] of Object.entries(recorded)) {
      if (typeof revision === 'string') specRevisions[spec] = revision;
    }
  }
  return {
    tool: TOOL_VERSION,
    catalog: { format: format ? Number(format[1]) : null, fingerprint: fingerprint(catalogText) },
    specRevisions,
  };
}

/** What `pbx-conformance --version` prints: the CLI's semver, then the catalog, then one line per spec. */
export function versionText(info: VersionInfo = versionInfo()): string {
  const specs = Object.entries(info.specRevisions).map(([spec, revision]) => `  ${spec} ${revision}`);
  return [
    `pbx-conformance ${info.tool}`,
    `catalog: features/clauses.yaml format ${info.catalog.format ?? '?'} ${info.catalog.fingerprint}`,
    `specs judged:${specs.length === 0 ? ' (none recorded)' : ''}`,
    ...specs,
  ].join('\n');
}
