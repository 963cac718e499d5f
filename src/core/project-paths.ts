import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Absolute paths of the tool's own resources, derived from this module's location (never from the
 * working directory), so the CLI and the checks work from any cwd. Paths a user names (reports,
 * target file, baseline, expectations, scenario files) are resolved against the working
 * directory instead, by the commands.
 *
 * `PROJECT_ROOT` holds src/, simulators/, steps/, features/ and schemas/: the repository when the
 * TypeScript sources run through tsx, and dist/ of the installed package when they run compiled
 * (scripts/build-package.mjs mirrors the repository's layout there).
 */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/[\\/]$/, '');

/** Whether this module runs compiled (dist/, the installed package) rather than as TypeScript. */
export const RUNNING_COMPILED = import.meta.url.endsWith('.js');

/**
 * The directory of package.json: `PROJECT_ROOT` in the repository, its parent in the package
 * (package.json sits beside dist/, not in it).
 */
export const PACKAGE_ROOT = existsSync(join(PROJECT_ROOT, 'package.json'))
  ? PROJECT_ROOT
  : dirname(PROJECT_ROOT);

/** Step definitions Cucumber loads, relative to `PROJECT_ROOT`: compiled or TypeScript, as this module runs. */
export const STEP_DEFINITION_PATHS: readonly string[] = [
  RUNNING_COMPILED ? 'steps/**/*.js' : 'steps/**/*.ts',
];

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

/** Where every command writes its reports unless told otherwise, relative to its working directory (`io.cwd`). */
export const DEFAULT_REPORTS_DIR = 'reports';
