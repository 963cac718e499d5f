import { DEFAULT_CATALOG_PATH } from '../core/project-paths.ts';
import { versionInfo } from '../core/tool-version.ts';

/** Which clause catalog judged a run, as every report's metadata names it. */
export interface CatalogIdentity {
  /** The catalog's format `version`. */
  catalogVersion: number;
  /** `sha256:` and 12 hex digits of the catalog's content, as `pbx-conformance --version` prints it. */
  catalogFingerprint: string;
}

/**
 * The catalog identity of a report, read from the catalog file itself (default: the shipped
 * features/clauses.yaml), so every command (verify, certify-plugin with and without `--mkp`,
 * fuzz, resolver-check) names its catalog the same way (issue 29, item 12).
 */
export function catalogIdentity(catalogPath: string = DEFAULT_CATALOG_PATH): CatalogIdentity {
  const { catalog } = versionInfo(catalogPath);
  return { catalogVersion: catalog.format ?? 0, catalogFingerprint: catalog.fingerprint };
}
