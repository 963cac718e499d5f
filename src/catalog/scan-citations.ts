import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** A clause citation written so that a grep for the full id misses it. */
export interface AbbreviatedCitation {
  /** `path:line`, relative to the scanned root. */
  where: string;
  text: string;
}

export interface CitationScan {
  /** Full clause ids that the simulator sources cite (in comments or code). */
  cited: Set<string>;
  /**
   * Full clause ids that the certification code cites: `plugin` clauses are judged on a plug-in's
   * runs, not implemented by the simulator, so their citation belongs where they are judged.
   */
  citedByJudges: Set<string>;
  /** Wildcards after a clause prefix and lists of bare id suffixes, in comments. */
  abbreviations: AbbreviatedCitation[];
}

export interface CitationScanOptions {
  root: string;
  /** Where clause behaviour is implemented: full ids cited here count (default `simulators`). */
  implementationDirs?: readonly string[];
  /** Where `plugin` clauses are judged: full ids cited here count for them (default `src/certify`). */
  judgeDirs?: readonly string[];
  /** Where abbreviated citations are looked for (default `src`, `simulators`, `steps`). */
  productDirs?: readonly string[];
  /** Catalog prefixes (`MON`, `MAINT`, …): only ids and wildcards with these prefixes count. */
  prefixes: readonly string[];
}

const SOURCE_FILE = /\.(ts|py)$/;
const COMMENT_LINE = /^\s*(\/\/|\/\*\*?|\*|#)/;

/**
 * Reads the product's sources for clause citations, so the catalog check can list the testable
 * clauses that no simulator source cites (a newcomer greps the full id and finds the code) and
 * flag abbreviated citations that defeat that grep.
 */
export async function scanCitations(options: CitationScanOptions): Promise<CitationScan> {
  const prefixes = options.prefixes.join('|');
  const fullId = new RegExp(`\\b(?:${prefixes})(?:-[A-Z0-9]+)+\\b`, 'g');
  const wildcard = new RegExp(`\\b(?:${prefixes})(?:-[A-Z0-9]+)*-\\*`, 'g');
  const continuation = /(?:,\s*|\/\s*|…)-[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*\b/g;
  const citedIn = async (dirs: readonly string[]): Promise<Set<string>> => {
    const cited = new Set<string>();
    for (const dir of dirs) {
      for (const file of await sourceFiles(join(options.root, dir))) {
        for (const match of (await readFile(file, 'utf8')).matchAll(fullId)) cited.add(match[0]);
      }
    }
    return cited;
  };
  const cited = await citedIn(options.implementationDirs ?? ['simulators']);
  const citedByJudges = await citedIn(options.judgeDirs ?? ['src/certify']);
  const abbreviations: AbbreviatedCitation[] = [];
  for (const dir of options.productDirs ?? ['src', 'simulators', 'steps']) {
    for (const file of await sourceFiles(join(options.root, dir))) {
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, index) => {
        if (!COMMENT_LINE.test(line)) return;
        const found = [...line.matchAll(wildcard), ...line.matchAll(continuation)].map((m) => m[0].trim());
        for (const text of found) {
          abbreviations.push({ where: `${relative(options.root, file)}:${index + 1}`, text });
        }
      });
    }
  }
  return { cited, citedByJudges, abbreviations };
}

async function sourceFiles(dir: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== '__pycache__')
        files.push(...(await sourceFiles(path)));
    } else if (SOURCE_FILE.test(entry.name)) {
      files.push(path);
    }
  }
  return files.sort();
}
