import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../src/core/project-paths.ts';

/**
 * Issue 30 §2: a simulator's front door exports what an outside user may use and nothing else,
 * each name with one line of doc. These are the curated lists; a name joins or leaves a front door
 * by changing its list here on purpose.
 */
const FRONT_DOORS: Record<string, readonly string[]> = {
  'simulators/pbx/index.ts': [
    // Starting one, and the handle
    'start',
    'PbxStartOptions',
    'PbxUrls',
    'PbxHandle',
    'ControllerSettings',
    'RawMount',
    'WebRoute',
    // Named functions over a started PBX
    'pbxState',
    'pbxNow',
    'siteControlRoutes',
    'startFieldActivity',
    'FieldActivityOptions',
    'raiseAttention',
    'AttentionEvent',
    'forwarderStatus',
    'resolveCaller',
    // The control plane
    'httpPbxControl',
    'PbxControl',
    'PBX_CONTROL_DOCUMENT',
    'EndpointStatus',
    'MonitoringHostEntry',
    'ModuleLogEntry',
    'CreatedToken',
    'TokenInfo',
    'CompletionEvent',
    'MAINTENANCE_BASE_PATH',
    'RESOLVER_OPERATIONS',
    'ResolverSettingsView',
    'ResolutionAnswer',
    'ResolutionState',
    'ResolutionTrigger',
    'ProviderAttemptView',
    'ParserHitView',
    'AddressBookEntry',
    'CallerIdResult',
    'SearchLogEntry',
    // Scenarios and the state
    'listScenarios',
    'resolveScenario',
    'loadScenarioFile',
    'scenarioState',
    'shareableState',
    'PbxState',
    'AgentExtensions',
    'BackupState',
    'SipProviderState',
    'SnapshotFormat',
    // What the faces render
    'renderFaces',
    'renderFormat',
    'snapshotOf',
    'PBX_SECTION_NAMES',
    'sectionKeys',
    'pbxInventory',
    'buildMonitoringPackage',
    'unpackTar',
    // Recordings and replay
    'Recording',
    'RecordingSample',
    'RecordedStream',
    'RecordedClose',
    'RecordedHttpFetch',
    'RecordedHttpAnswer',
    'RecordedXmlRpcAnswer',
    'RECORDING_FORMAT',
    'RECORDING_VERSION',
    'toRecordedBytes',
    'streamBytes',
    'fetchBody',
    'replayRecording',
    'ReplayBinding',
    // The web resolver's rules, for resolver-check
    'ResolverProvider',
    'ProviderField',
    'AUTH_METHODS',
    'AuthMethod',
    'HTTP_METHODS',
    'NUMBER_FORMATS',
    'NumberFormat',
    'validateProvider',
    'ProviderConfigError',
    'normaliseProvider',
    'providerSecrets',
    'numberForms',
    'readJavaRegex',
    'RegexNote',
    'resolveNumber',
    'ResolutionResult',
    'ResolverLimits',
    'ResolvedName',
    'SearchLogLevel',
    'SearchStep',
    'SecretMasker',
  ],
  'simulators/fleet-controller/index.ts': [
    'start',
    'FleetStartOptions',
    'FleetUrls',
    'FleetHandle',
    'SiteControlPlane',
    'ScryptCost',
    'DataDirInUseError',
    'DataFormatError',
    // Named functions over a started controller
    'connectInProcess',
    'ingestConnections',
    'linkedSites',
    'acceptedEvents',
    'attentionHistory',
    'alignFixture',
    // The control plane
    'httpFleetControl',
    'FleetControl',
    'FLEET_CONTROL_DOCUMENT',
    // Fixtures and findings
    'FleetFixture',
    'defaultFixture',
    'emptyFixture',
    'evaluateFindings',
  ],
  'simulators/customer-endpoint/index.ts': [
    // Starting one, and the handle
    'start',
    'CustomerEndpointOptions',
    'CustomerEndpointHandle',
    'CustomerEndpointControl',
    // What it answers
    'EndpointConfig',
    'EndpointBehaviour',
    'Compression',
    'DigestAlgorithm',
    'parseWireConfig',
    // The control plane
    'httpEndpointControl',
    'EndpointControl',
    'EndpointInfo',
    'ENDPOINT_CONTROL_DOCUMENT',
    // What it received
    'RecordedRequest',
    'recordedHeader',
    'parseDigestAuthorization',
  ],
  'simulators/fleet/index.ts': [
    // Starting a fleet, a controller alone or a shard
    'startFleet',
    'FleetOptions',
    'WholeFleetOptions',
    'ControllerOnlyOptions',
    'ShardOptions',
    'Fleet',
    'FleetPbx',
    'FleetShard',
    'FleetStartError',
    'MAX_PBX_COUNT',
    'MAX_POOLED_PBX_COUNT',
    'demoFixture',
    // Shards and the fleet secret
    'parseShard',
    'Shard',
    'derivedIngestKey',
    'FLEET_SECRET_ENV',
    // Address pools and pooled targets
    'AddressPool',
    'FleetPool',
    'DEFAULT_ADDRESS_POOL',
    'parseAddressPool',
    'addressAt',
    'PooledTarget',
    'PoolSection',
    'pbxOfPool',
    // The preflight's parts, for the CLI's messages and the benches
    'descriptorsNeeded',
    'FDS_PER_SHARD_PBX',
    'largestFleetUnder',
    'openFileShortfall',
    'probeBind',
    'readOpenFileLimit',
  ],
};

interface ExportedName {
  name: string;
  /** The `/** … *\/` comment right before the name (or before its one-name export statement). */
  doc: string | null;
}

function docBefore(source: ts.SourceFile, node: ts.Node): string | null {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  const last = ranges.at(-1);
  const text = last ? source.text.slice(last.pos, last.end) : '';
  return text.startsWith('/**') ? text : null;
}

/** Every name a front door exports, or a problem for each statement that is not a named re-export. */
function frontDoor(path: string): { names: ExportedName[]; problems: string[] } {
  const source = ts.createSourceFile(
    path,
    readFileSync(join(PROJECT_ROOT, path), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const names: ExportedName[] = [];
  const problems: string[] = [];
  for (const statement of source.statements) {
    const line = source.getLineAndCharacterOfPosition(statement.getStart()).line + 1;
    if (!ts.isExportDeclaration(statement) || statement.moduleSpecifier === undefined) {
      problems.push(`${path}:${line} is not a named re-export (a front door holds no code of its own)`);
      continue;
    }
    const clause = statement.exportClause;
    if (clause === undefined || !ts.isNamedExports(clause)) {
      problems.push(`${path}:${line} re-exports a whole module`);
      continue;
    }
    for (const element of clause.elements) {
      const own = docBefore(source, element);
      const doc = own ?? (clause.elements.length === 1 ? docBefore(source, statement) : null);
      names.push({ name: element.name.text, doc });
    }
  }
  return { names, problems };
}

for (const [path, curated] of Object.entries(FRONT_DOORS)) {
  test(`${path} exports exactly its curated names`, () => {
    const { names, problems } = frontDoor(path);
    assert.deepEqual(problems, []);
    assert.deepEqual(names.map((n) => n.name).sort(), [...curated].sort());
  });

  test(`${path}: every name it exports has one line of doc`, () => {
    const { names } = frontDoor(path);
    const undocumented = names
      .filter(
        ({ doc }) => doc === null || doc.includes('\n') || doc.replace(/^\/\*\*|\*\/$/g, '').trim() === '',
      )
      .map(({ name }) => name);
    assert.deepEqual(undocumented, []);
  });
}

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Nothing hands out its inside at run time (STYLE.md, "A front door per package"): no handle has
 * an `internals` (or any other such) property, and nothing in the product or the benches reaches
 * for one. What an outsider needs is a control operation or a named function of the front door.
 */
test('no handle has `internals`: the word is in no file of src/, steps/, bench/ or simulators/', () => {
  const found = ['src', 'steps', 'bench', 'simulators']
    .flatMap((dir) => codeFiles(join(PROJECT_ROOT, dir)))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((text, i) =>
          /\binternals\b/.test(text) ? [`${relative(PROJECT_ROOT, file)}:${i + 1}`] : [],
        ),
    );
  assert.deepEqual(found, []);
});
