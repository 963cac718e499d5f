import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { generateMessages } from '@cucumber/gherkin';
import { type GherkinDocument, IdGenerator, type Pickle, SourceMediaType } from '@cucumber/messages';

/** One scenario (one pickle: an outline yields one per example row) and the tags it carries. */
export interface ScenarioTags {
  name: string;
  /** Path relative to the scanned directory, with `/` separators. */
  uri: string;
  line: number;
  /** Effective tags including those inherited from Feature, Rule and Examples, e.g. `@MON-X`. */
  tags: string[];
}

export interface FeatureParseError {
  uri: string;
  message: string;
}

export interface FeatureScan {
  scenarios: ScenarioTags[];
  errors: FeatureParseError[];
}

/**
 * Parses every `*.feature` below `dir` with the same Gherkin compiler Cucumber uses, so inherited
 * tags and outlines count exactly as they will at run time.
 */
export async function scanFeatureTags(dir: string): Promise<FeatureScan> {
  const files = (await listFeatureFiles(dir)).sort();
  const scenarios: ScenarioTags[] = [];
  const errors: FeatureParseError[] = [];
  for (const file of files) {
    const uri = relative(dir, file).split(sep).join('/');
    const text = await readFile(file, 'utf8');
    const envelopes = generateMessages(text, uri, SourceMediaType.TEXT_X_CUCUMBER_GHERKIN_PLAIN, {
      includeGherkinDocument: true,
      includePickles: true,
      includeSource: false,
      newId: IdGenerator.incrementing(),
    });
    const lines = new Map<string, number>();
    for (const envelope of envelopes) {
      if (envelope.parseError) errors.push({ uri, message: envelope.parseError.message });
      const feature = envelope.gherkinDocument?.feature;
      if (feature) collectLines(feature.children, lines);
    }
    for (const envelope of envelopes) {
      if (envelope.pickle) scenarios.push(toScenarioTags(envelope.pickle, uri, lines));
    }
  }
  return { scenarios, errors };
}

type Children = NonNullable<GherkinDocument['feature']>['children'];

function collectLines(children: Children, lines: Map<string, number>): void {
  for (const child of children) {
    if (child.rule) collectLines(child.rule.children, lines);
    const scenario = child.scenario;
    if (!scenario) continue;
    lines.set(scenario.id, scenario.location.line);
    for (const examples of scenario.examples) {
      for (const row of examples.tableBody) lines.set(row.id, row.location.line);
    }
  }
}

function toScenarioTags(pickle: Pickle, uri: string, lines: Map<string, number>): ScenarioTags {
  // astNodeIds: [scenario id, example row id?]; the row is where an outline's pickle lives.
  const nodeId = pickle.astNodeIds[pickle.astNodeIds.length - 1] ?? '';
  return { name: pickle.name, uri, line: lines.get(nodeId) ?? 0, tags: pickle.tags.map((tag) => tag.name) };
}

async function listFeatureFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.feature'))
    .map((entry) => join(entry.parentPath, entry.name));
}
