import { fileURLToPath } from 'node:url';

/**
 * Absolute paths of the project, derived from this module's location (never from the working
 * directory), so the CLI and the checks work from any cwd.
 */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/[\\/]$/, '');

/** The clause catalog the scenarios cite. */
export const DEFAULT_CATALOG_PATH = fileURLToPath(new URL('../../features/clauses.yaml', import.meta.url));

/** The spec repository's copy of the catalog; when present, features/clauses.yaml must equal it. */
export const SHARED_CATALOG_PATH = fileURLToPath(
  new URL('../../../shared/specs/clauses.yaml', import.meta.url),
);

/** Gherkin features (features/**\/*.feature). */
export const FEATURES_DIR = fileURLToPath(new URL('../../features', import.meta.url));

/** Prefixes whose testable clauses must all be proved by a scenario. */
export const COVERAGE_GOALS_PATH = fileURLToPath(
  new URL('../../features/coverage-goals.yaml', import.meta.url),
);

/** One baseline file per target name: `<dir>/<target-name>.yaml`. */
export const EXPECTED_FAILURES_DIR = fileURLToPath(
  new URL('../../features/expected-failures', import.meta.url),
);

/** Where `verify` writes its reports unless told otherwise. */
export const DEFAULT_REPORTS_DIR = fileURLToPath(new URL('../../reports', import.meta.url));
