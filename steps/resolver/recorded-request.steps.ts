/**
 * What the reference endpoints recorded: the `client` clauses are checked here, on the bytes the
 * PBX sent (method, raw target, headers, body), so the same checks certify a real PBX.
 */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import type { RecordedRequest } from '../../simulators/customer-endpoint/index.ts';
import type { PbxWorld } from '../support/world.ts';
import {
  acceptLanguageProblems,
  acceptProblems,
  headerValues,
  listElements,
  mediaType,
  singleHeader,
  userAgentProblems,
} from './support/browser-headers.ts';
import { describeRecords } from './support/recorded-evidence.ts';
import { MAIN } from './support/resolver-scenario.ts';
import { resolverScenario } from './support/resolver-scenario-of.ts';
import { decodesTo, nonUrlCharacters, placeholderTexts } from './support/url-values.ts';

const TLS_PROTOCOLS: Record<string, string> = { '1.2': 'TLSv1.2', '1.3': 'TLSv1.3' };

function records(world: PbxWorld, name = MAIN): RecordedRequest[] {
  return resolverScenario(world).requests(name);
}

function shown(world: PbxWorld, name = MAIN): string {
  return describeRecords(name, records(world, name), resolverScenario(world).secrets());
}

function first(world: PbxWorld, name = MAIN): RecordedRequest {
  const record = records(world, name)[0];
  assert.ok(record, `the customer endpoint "${name}" received no request`);
  return record;
}

/** The first request, which must use `method` (the scenario's provider is a GET or a POST one). */
function firstWithMethod(world: PbxWorld, method: string): RecordedRequest {
  const record = first(world);
  assert.equal(record.method, method, `the request used ${record.method}, not ${method}\n${shown(world)}`);
  return record;
}

function header(record: RecordedRequest, name: string): string {
  const value = singleHeader(record, name);
  if (typeof value !== 'string') assert.fail(`${value.problem}\n${JSON.stringify(record.headers)}`);
  return value;
}

/** The only placeholder-template of the main provider (its URL below the endpoint). */
function template(world: PbxWorld): string {
  const draft = resolverScenario(world).drafts.find((d) => d.id === MAIN);
  assert.ok(draft, 'the scenario has no provider');
  return draft.url;
}

Then(
  '{endpoint} receives a request for the path {string}',
  function (this: PbxWorld, name: string, path: string) {
    assert.ok(
      records(this, name).some((r) => r.path === path),
      `no request for ${path}\n${shown(this, name)}`,
    );
  },
);

Then(
  '{endpoint} receives a request for the path {string} over TLS {float}',
  function (this: PbxWorld, name: string, path: string, version: number) {
    const protocol = TLS_PROTOCOLS[version.toFixed(1)];
    const hit = records(this, name).find((r) => r.path === path);
    assert.ok(hit, `no request for ${path}\n${shown(this, name)}`);
    assert.equal(hit.tlsProtocol, protocol, `the request came over ${hit.tlsProtocol ?? 'plain HTTP'}`);
  },
);

Then('{endpoint} received no request', function (this: PbxWorld, name: string) {
  assert.deepEqual(records(this, name).length, 0, shown(this, name));
});

Then(
  '{endpoint} received {int} requests for the path {string}',
  function (this: PbxWorld, name: string, count: number, path: string) {
    assert.equal(records(this, name).filter((r) => r.path === path).length, count, shown(this, name));
  },
);

Then(
  '{endpoint} received a request for the path {string} and then one for {string}',
  function (this: PbxWorld, name: string, path: string, target: string) {
    const all = records(this, name);
    const at = all.findIndex((r) => r.path === path);
    assert.ok(at >= 0, `no request for ${path}\n${shown(this, name)}`);
    assert.ok(
      all.slice(at + 1).some((r) => r.target === target),
      `no request for ${target} after the one for ${path}\n${shown(this, name)}`,
    );
  },
);

Then(
  'every request {endpoint} received used the method {string}',
  function (this: PbxWorld, name: string, method: string) {
    const all = records(this, name);
    assert.ok(all.length > 0, `the customer endpoint "${name}" received no request`);
    assert.deepEqual(
      all.map((r) => r.method),
      all.map(() => method),
      shown(this, name),
    );
  },
);

Then(
  'the GET request carries a user-agent of a desktop browser whose version is {int}',
  function (this: PbxWorld, version: number) {
    const userAgent = header(firstWithMethod(this, 'GET'), 'user-agent');
    assert.deepEqual(userAgentProblems(userAgent, version), [], `user-agent: ${userAgent}`);
  },
);

Then('the GET request carries an accept header that accepts HTML and XML', function (this: PbxWorld) {
  const accept = header(firstWithMethod(this, 'GET'), 'accept');
  assert.deepEqual(acceptProblems(accept), [], `accept: ${accept}`);
});

Then(
  'the GET request carries accept-encoding {string} exactly, up to case and white space',
  function (this: PbxWorld, expected: string) {
    const value = header(firstWithMethod(this, 'GET'), 'accept-encoding');
    assert.deepEqual(listElements(value), listElements(expected), `accept-encoding: ${value}`);
  },
);

Then(
  'the GET request carries an accept-language that names German first and English next',
  function (this: PbxWorld) {
    const value = header(firstWithMethod(this, 'GET'), 'accept-language');
    assert.deepEqual(acceptLanguageProblems(value), [], `accept-language: ${value}`);
  },
);

Then(
  'the GET request carries the header {string} with the value {string}',
  function (this: PbxWorld, name: string, value: string) {
    const actual = header(firstWithMethod(this, 'GET'), name);
    assert.equal(actual.trim().toLowerCase(), value.toLowerCase(), `${name}: ${actual}`);
  },
);

Then('the POST request has the media type {string}', function (this: PbxWorld, type: string) {
  const contentType = header(firstWithMethod(this, 'POST'), 'content-type');
  assert.equal(mediaType(contentType), type, `content-type: ${contentType}`);
});

Then(
  'the POST body is a JSON object whose only member {string} is the string {string}',
  function (this: PbxWorld, member: string, value: string) {
    const body = firstWithMethod(this, 'POST').body.toString('utf8');
    let parsed: unknown;
    assert.doesNotThrow(() => {
      parsed = JSON.parse(body);
    }, `the body is not JSON: ${body}`);
    assert.deepEqual(parsed, { [member]: value }, `body: ${body}`);
  },
);

Then(
  'the raw query the customer endpoint received is {names}',
  function (this: PbxWorld, alternatives: string[]) {
    const { query } = first(this);
    assert.ok(
      query !== null && alternatives.includes(query),
      `the raw query is ${JSON.stringify(query)}, expected ${alternatives.map((a) => JSON.stringify(a)).join(' or ')}`,
    );
  },
);

Then(
  'the request target the customer endpoint received is {string}',
  function (this: PbxWorld, target: string) {
    assert.equal(first(this).target, target);
  },
);

Then(
  'the request target the customer endpoint received holds only characters allowed in a URL',
  function (this: PbxWorld) {
    const { target } = first(this);
    assert.deepEqual(nonUrlCharacters(target), [], `request target ${target}`);
  },
);

Then(
  'the value of the field {string} reached the endpoint intact in the path and in the query',
  function (this: PbxWorld, field: string) {
    const draft = resolverScenario(this).drafts.find((d) => d.id === MAIN);
    const value = draft?.config.fields?.[field]?.value;
    assert.ok(value !== undefined, `the provider has no field ${field}`);
    const { target } = first(this);
    const texts = placeholderTexts(template(this), target);
    assert.ok(texts, `the request target ${target} does not have the shape of ${template(this)}`);
    const places = texts.filter((t) => t.name === field);
    assert.ok(places.length >= 2, `the template has {${field}} in the path and the query`);
    for (const { raw } of places)
      assert.ok(decodesTo(raw, value), `${JSON.stringify(raw)} does not decode to ${JSON.stringify(value)}`);
  },
);

Then('the requests {endpoint} received carry no credentials', function (this: PbxWorld, name: string) {
  const all = records(this, name);
  assert.ok(all.length > 0, `the customer endpoint "${name}" received no request`);
  for (const record of all) {
    assert.deepEqual(headerValues(record, 'authorization'), [], shown(this, name));
    assert.deepEqual(headerValues(record, 'proxy-authorization'), [], shown(this, name));
  }
});

Then(
  'the first request {endpoint} received carries Basic credentials for {string} with the password {string}',
  function (this: PbxWorld, name: string, username: string, password: string) {
    const value = header(first(this, name), 'authorization');
    const m = /^basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(value);
    assert.ok(m, 'the authorization header is not Basic credentials');
    assert.equal(
      Buffer.from(m[1] as string, 'base64').toString('utf8'),
      `${username}:${password}`,
      'the Basic credentials do not decode to the configured user name and password',
    );
  },
);

Then("{endpoint} accepted the first request's credentials", function (this: PbxWorld, name: string) {
  const record = first(this, name);
  assert.equal(record.auth, 'ok', shown(this, name));
  assert.ok(record.status !== null && record.status >= 200 && record.status < 300, shown(this, name));
});

function digestChallenged(world: PbxWorld): number {
  const all = records(world);
  const at = all.findIndex((r) => r.status === 401 && r.auth !== 'ok');
  assert.ok(at >= 0, `no request was answered with the Digest challenge\n${shown(world)}`);
  return at;
}

Then(
  '{endpoint} answered a request with 401 and a Digest challenge',
  function (this: PbxWorld, name: string) {
    const auth = resolverScenario(this).endpoint(name).handle.control.config().fallback?.auth;
    assert.equal(auth?.scheme, 'Digest', 'the endpoint is not set up for Digest');
    digestChallenged(this);
  },
);

Then('the PBX repeated that request with Digest authorisation', function (this: PbxWorld) {
  const all = records(this);
  const at = digestChallenged(this);
  const challenged = all[at] as RecordedRequest;
  const repeat = all[at + 1];
  assert.ok(repeat, `no request after the challenge\n${shown(this)}`);
  assert.equal(repeat.method, challenged.method, 'the repeated request has another method');
  assert.equal(repeat.target, challenged.target, 'the repeated request has another target');
  assert.ok(repeat.body.equals(challenged.body), 'the repeated request has another body');
  assert.match(
    header(repeat, 'authorization'),
    /^digest\s/i,
    'the repeated request carries no Digest authorisation',
  );
});

Then('{endpoint} accepted the Digest authorisation', function (this: PbxWorld, name: string) {
  const all = records(this, name);
  const at = digestChallenged(this);
  const repeat = all[at + 1];
  assert.ok(repeat, `no request after the challenge\n${shown(this, name)}`);
  assert.equal(
    repeat.auth,
    'ok',
    `the endpoint's digest verifier refused the authorisation\n${shown(this, name)}`,
  );
});

Then(
  'the first request {endpoint} received carries the header {string} with the value {string}',
  function (this: PbxWorld, name: string, headerName: string, value: string) {
    assert.equal(header(first(this, name), headerName), value);
  },
);

Then(
  '{endpoint} answered with the content coding {string}',
  function (this: PbxWorld, name: string, coding: string) {
    const answered = records(this, name).filter(
      (r) => r.status !== null && r.status >= 200 && r.status < 300,
    );
    assert.ok(answered.length > 0, `no request was answered with a 2xx\n${shown(this, name)}`);
    for (const record of answered)
      assert.equal(
        record.responseContentEncoding?.trim().toLowerCase(),
        coding.toLowerCase(),
        `answer #${record.seq} went out with Content-Encoding ${record.responseContentEncoding ?? '(none)'}, not ${coding}\n${shown(this, name)}`,
      );
  },
);
