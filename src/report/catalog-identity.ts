import type { Catalog } from '../catalog/catalog.ts';

/** Which clause catalog judged a run, as every report's metadata names it. */
export interface CatalogIdentity {
  /** The catalog's format `version`. */
  catalogVersion: number;
  /** `sha256:` and 12 hex digits of the catalog's content, as `pbx-conformance --version` prints it. */
  catalogFingerprint: string;
}

/**
 * The catalog identity of a report, from the catalog that judged the run (its format version and
 * the fingerprint of the text it was read from), so every command names its catalog the same way
 * (issue 29, item 12; issue 30 §4).
 */
export function catalogIdentity(catalog: Pick<Catalog, 'version' | 'fingerprint'>): CatalogIdentity {
  return { catalogVersion: catalog.version, catalogFingerprint: catalog.fingerprint };
}
