import { readFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import {
  COVERAGE_GOALS_PATH,
  DEFAULT_CATALOG_PATH,
  FEATURES_DIR,
  PROJECT_ROOT,
  SHARED_CATALOG_PATH,
} from '../core/project-paths.ts';
import { catalogPrefixes } from './catalog.ts';
import { checkCatalog } from './check-catalog.ts';
import { formatCatalogCheck } from './format-catalog-check.ts';
import { parseCatalog } from './load-catalog.ts';
import { loadCoverageGoals } from './load-coverage-goals.ts';
import { scanCitations } from './scan-citations.ts';
import { scanFeatureTags } from './scan-feature-tags.ts';

export interface CatalogCheckOptions {
  catalogPath?: string;
  featuresDir?: string;
  coverageGoalsPath?: string;
  /** The project whose sources are scanned for clause citations; `null` skips that check. */
  sourceRoot?: string | null;
  /** The spec repository's catalog; `null` skips the comparison. */
  sharedCatalogPath?: string | null;
  stdout: Writable;
  stderr: Writable;
}

/**
 * Loads catalog, features and goals, runs {@link checkCatalog} and prints the outcome.
 * Returns the exit code: 0 passed, 1 problems found, 2 the check itself could not run.
 */
export async function runCatalogCheck(options: CatalogCheckOptions): Promise<number> {
  try {
    const catalogText = await readFile(options.catalogPath ?? DEFAULT_CATALOG_PATH, 'utf8');
    const catalog = parseCatalog(catalogText);
    const sharedPath =
      options.sharedCatalogPath === undefined ? SHARED_CATALOG_PATH : options.sharedCatalogPath;
    const sharedCatalogText = sharedPath === null ? null : await readOptional(sharedPath);
    const scan = await scanFeatureTags(options.featuresDir ?? FEATURES_DIR);
    const coverageGoals = await loadCoverageGoals(options.coverageGoalsPath ?? COVERAGE_GOALS_PATH);
    const sourceRoot = options.sourceRoot === undefined ? PROJECT_ROOT : options.sourceRoot;
    const citations =
      sourceRoot === null
        ? undefined
        : await scanCitations({ root: sourceRoot, prefixes: catalogPrefixes(catalog) });
    const result = checkCatalog({
      catalog,
      scan,
      coverageGoals,
      catalogText,
      sharedCatalogText,
      ...(citations ? { citations } : {}),
    });
    options.stdout.write(formatCatalogCheck(result));
    return result.problems.length === 0 ? 0 : 1;
  } catch (error) {
    options.stderr.write(`catalog check: ${oneLine(error)}\n`);
    return 2;
  }
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ');
}
