/** Calling the three XML-RPC queries and reading their answers (queries.feature). */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { request } from 'undici';
import { isStruct } from '../../src/clients/xmlrpc-call.ts';
import { blockSequence, viewAgentText } from '../support/agent-text-view.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import { isUtf8, normaliseMediaType } from '../support/snapshot-checks.ts';
import { classifySnapshot, type SnapshotKind } from '../support/snapshot-format.ts';
import { type PbxWorld, redactAuth, XMLRPC_TIMEOUT_MS } from '../support/world.ts';
import { parseXmlDocument } from '../support/xml-document.ts';
import { answerStruct, describeOutcome, lastExchange, stringMember } from '../support/xmlrpc-answers.ts';
import { unknownMethodDeviation, unknownMethodFault } from './support/unknown-method-fault.ts';

const HTTP_ANSWER = memoryKey<HttpAnswer>('httpAnswer');

/** `GetMonitoringData` → `<instance>.GetMonitoringData`; a name with a dot is taken as it is. */
function qualified(world: PbxWorld, name: string): string {
  return name.includes('.') ? name : world.methodName(name);
}

When(
  'the monitoring client calls {string} with an empty struct',
  async function (this: PbxWorld, name: string) {
    await this.callXmlRpc(qualified(this, name), [{}], { kind: 'valid' });
  },
);

When(
  'the monitoring client calls the method named {string} with an empty struct',
  async function (this: PbxWorld, method: string) {
    await this.callXmlRpc(method, [{}], { kind: 'valid' });
  },
);

When(
  'the monitoring client calls {string} with useLocalChecks set to the boolean {word}',
  async function (this: PbxWorld, name: string, value: string) {
    assert.ok(value === 'true' || value === 'false', `a boolean is true or false, not ${value}`);
    await this.callXmlRpc(qualified(this, name), [{ useLocalChecks: value === 'true' }], { kind: 'valid' });
  },
);

When(
  'the monitoring client calls {string} with useLocalChecks set to the string {string}',
  async function (this: PbxWorld, name: string, value: string) {
    await this.callXmlRpc(qualified(this, name), [{ useLocalChecks: value }], { kind: 'valid' });
  },
);

When(
  "the monitoring client calls {string} under the target's original instance name with an empty struct",
  async function (this: PbxWorld, command: string) {
    await this.callXmlRpc(`${this.pbx.xmlrpc.instanceName}.${command}`, [{}], { kind: 'valid' });
  },
);

When(
  'a caller without credentials calls {string} with an empty struct',
  async function (this: PbxWorld, name: string) {
    await this.callXmlRpc(qualified(this, name), [{}], { kind: 'none' });
  },
);

function methodCallXml(method: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<methodCall><methodName>${method}</methodName><params><param><value><struct></struct></value></param></params></methodCall>`;
}

/** `{base_url}` as the spec writes it in an address (XMLRPC-ENDPOINT). */
const BASE_URL = '{base_url}';

When(
  'a caller posts an XML-RPC call of {string} with an empty struct to {string} with Content-Type {string}',
  async function (this: PbxWorld, name: string, address: string, contentType: string) {
    // The path is the spec's, literally (XMLRPC-ENDPOINT), not the target file's `xmlrpc.path`;
    // only the credentials parameter is taken from the target.
    assert.ok(address.startsWith(`${BASE_URL}/`), `an address below ${BASE_URL} is expected, not ${address}`);
    const credentials = this.xmlRpcPath({ kind: 'valid' }).slice(this.pbx.xmlrpc.path.length);
    const path = `${address.slice(BASE_URL.length)}${credentials}`;
    const body = methodCallXml(qualified(this, name));
    const response = await request(`${this.pbx.webUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
      headersTimeout: XMLRPC_TIMEOUT_MS,
      bodyTimeout: XMLRPC_TIMEOUT_MS,
    });
    const bytes = Buffer.from(await response.body.arrayBuffer());
    const answer = {
      status: response.statusCode,
      contentType: String(response.headers['content-type'] ?? ''),
      bytes,
    };
    this.memory.set(HTTP_ANSWER, answer);
    this.evidence({
      exchange: `HTTP POST ${redactAuth(path, this.pbx.xmlrpc.authParam)}`,
      request: `Content-Type: ${contentType}\n\n${body}`,
      response: `${answer.status} Content-Type: ${answer.contentType}\n\n${bytes.toString('utf8')}`,
    });
  },
);

interface HttpAnswer {
  status: number;
  contentType: string;
  bytes: Buffer;
}

Then('the HTTP answer is a methodResponse with a Content-Type of text\\/xml', function (this: PbxWorld) {
  const answer = this.memory.require(HTTP_ANSWER);
  assert.equal(answer.status, 200, `HTTP status ${answer.status}`);
  assert.equal(
    normaliseMediaType(answer.contentType).split(';')[0],
    'text/xml',
    `Content-Type ${answer.contentType}`,
  );
  const parsed = parseXmlDocument(answer.bytes.toString('utf8'));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  assert.equal(parsed.root.name, 'methodResponse');
});

/** Resolves numeric character references, which XML may use for any character. */
function resolveCharacterReferences(text: string): string {
  return text.replace(
    /&#(?:x([0-9a-fA-F]+)|(\d+));/g,
    (_, hex: string | undefined, dec: string | undefined) =>
      String.fromCodePoint(hex !== undefined ? Number.parseInt(hex, 16) : Number(dec)),
  );
}

Then('the HTTP answer is valid UTF-8 and contains {string}', function (this: PbxWorld, text: string) {
  const answer = this.memory.require(HTTP_ANSWER);
  assert.ok(isUtf8(answer.bytes), 'the answer is not valid UTF-8');
  assert.ok(
    resolveCharacterReferences(answer.bytes.toString('utf8')).includes(text),
    `the answer does not contain "${text}"`,
  );
});

Then(
  'the answer is a struct whose member {string} holds the {snapshot}',
  function (this: PbxWorld, member: string, kind: SnapshotKind) {
    const data = stringMember(this, member);
    assert.equal(
      classifySnapshot(data),
      kind,
      `"${member}" does not hold the ${kind}: ${data.slice(0, 200)}`,
    );
  },
);

Then(
  'the answer is a struct whose member {string} holds an XML document with the root element {string}',
  function (this: PbxWorld, member: string, root: string) {
    const parsed = parseXmlDocument(stringMember(this, member));
    assert.ok(parsed.ok, `"${member}" holds no well-formed XML: ${parsed.ok ? '' : parsed.error}`);
    assert.equal(parsed.root.name, root);
  },
);

Then(
  'the answer is a struct whose member {string} is the string {string} or {string}',
  function (this: PbxWorld, member: string, first: string, second: string) {
    const value = stringMember(this, member);
    assert.ok(value === first || value === second, `"${member}" is ${JSON.stringify(value)}`);
  },
);

Then(
  'the answer is a struct whose member {string} is the string {string}',
  function (this: PbxWorld, member: string, expected: string) {
    assert.equal(stringMember(this, member), expected);
  },
);

Then('the answer is the XML-RPC fault of an unknown method', async function (this: PbxWorld) {
  const { method, outcome } = lastExchange(this);
  const reference = await unknownMethodFault(this);
  assert.equal(outcome.kind, 'fault', `${method} answered ${describeOutcome(outcome)}, not a fault`);
  assert.deepEqual(
    unknownMethodDeviation(outcome, method, reference),
    [],
    `${method} answered ${describeOutcome(outcome)}, not the fault of the unknown method ${reference.method}`,
  );
});

Then('the answer is a struct with the member {string}', function (this: PbxWorld, member: string) {
  const struct = answerStruct(this);
  assert.ok(member in struct, `the struct has no member "${member}": ${JSON.stringify(Object.keys(struct))}`);
});

Then('the answer is a struct with no member but {string}', function (this: PbxWorld, member: string) {
  assert.deepEqual(Object.keys(answerStruct(this)), [member]);
});

function lastTwo(world: PbxWorld) {
  const exchanges = world.xmlrpcExchanges;
  assert.ok(exchanges.length >= 2, 'two XML-RPC calls are needed');
  return [exchanges.at(-2)!, exchanges.at(-1)!] as const;
}

Then('both answers hold the same data', function (this: PbxWorld) {
  const [a, b] = lastTwo(this);
  for (const e of [a, b])
    assert.ok(e.outcome.kind === 'value', `${e.method} answered ${describeOutcome(e.outcome)}`);
  const data = (e: typeof a) =>
    e.outcome.kind === 'value' ? (e.outcome.value as Record<string, unknown>)['data'] : undefined;
  assert.equal(typeof data(a), 'string', 'the first answer holds no data string');
  assert.equal(data(b), data(a), 'the answers hold different data');
});

Then('both answers are the same', function (this: PbxWorld) {
  const [a, b] = lastTwo(this);
  assert.deepEqual(b.outcome, a.outcome);
});

Then(
  'the XML-RPC data has the section {string} and all four blocks',
  function (this: PbxWorld, header: string) {
    const view = viewAgentText(stringMember(this, 'data'));
    const name = header.replace(/^<<<|>>>$/g, '');
    assert.ok(
      view.sections.some((s) => s.name === name && s.lines.length > 0),
      `no section ${header} with lines`,
    );
    assert.equal(view.sections[0]?.header, '<<<monitor_agent>>>', 'the agent header does not come first');
    assert.deepEqual(
      blockSequence(view),
      ['header', 'linux', 'pbx', 'local'],
      'the four blocks are not all there in order',
    );
  },
);

Then(
  'the XML-RPC data is an XML document with the root element {string}',
  function (this: PbxWorld, root: string) {
    const parsed = parseXmlDocument(stringMember(this, 'data'));
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    assert.equal(parsed.root.name, root);
  },
);

Then('the answer is an empty struct without the member {string}', function (this: PbxWorld, member: string) {
  const struct = answerStruct(this);
  assert.ok(!(member in struct), `the struct has the member "${member}"`);
  assert.deepEqual(Object.keys(struct), [], 'the struct is not empty');
});

/** Named PBX states of the control plane in which the data queries deliver data. */
const DATA_SCENARIOS = [
  'healthy',
  'all-phones-offline',
  'backup-failed',
  'trunk-unregistered',
  'raid-degraded',
  'update-major',
  'update-minor',
  'ram-warning',
  'ram-critical',
  'values-unknown',
  'large',
];

/** The `useLocalChecks` inputs the spec names: absent, booleans, and the strings `true` and `1`. */
const USE_LOCAL_CHECKS: Record<string, unknown>[] = [
  {},
  { useLocalChecks: true },
  { useLocalChecks: false },
  { useLocalChecks: 'true' },
  { useLocalChecks: '1' },
];

Then(
  'for generated PBX states and useLocalChecks values GetMonitoringData returns the complete agent text with the local checks \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const control = this.control;
    if (!control) return this.notVerifiable(this.noControlReason('load PBX scenarios'));
    await assertLiveProperty(
      this,
      'GetMonitoringData returns the complete agent text',
      fc.asyncProperty(
        fc.constantFrom(...DATA_SCENARIOS),
        fc.constantFrom(...USE_LOCAL_CHECKS),
        async (scenario, input) => {
          await control.loadScenario({ name: scenario });
          await control.invalidateSnapshot();
          const endpoint = (await this.httpRequest('GET', '/checkmk', { evidence: false })).body.toString(
            'utf8',
          );
          const { outcome } = await this.callXmlRpc(
            this.methodName('GetMonitoringData'),
            [input],
            { kind: 'valid' },
            { evidence: false },
          );
          const situation = `${scenario}, ${JSON.stringify(input)}`;
          assert.ok(
            outcome.kind === 'value' && isStruct(outcome.value),
            `${situation}: ${describeOutcome(outcome)}`,
          );
          const data = outcome.value['data'];
          assert.equal(typeof data, 'string', `${situation}: no data string`);
          const view = viewAgentText(data as string);
          assert.deepEqual(blockSequence(view), ['header', 'linux', 'pbx', 'local'], `${situation}: blocks`);
          assert.ok(
            view.sections.some((s) => s.name === 'local' && s.lines.length > 0),
            `${situation}: no local checks`,
          );
          assert.equal(data, endpoint, `${situation}: not the agent text of GET /checkmk`);
        },
      ),
      runs,
    );
    return undefined;
  },
);
