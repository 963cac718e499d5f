/** Talking to the data endpoint: raw and HTTP requests, and what a reply looks like on the wire. */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import { describeTcpOutcome } from '../../src/core/tcp-exchange.ts';
import { headerValue, headerValues } from '../support/http-message.ts';
import { assertSnapshot, isUtf8, normaliseMediaType } from '../support/snapshot-checks.ts';
import type { SnapshotKind } from '../support/snapshot-format.ts';
import { NO_DATA_TIMEOUT_MS, type PbxWorld } from '../support/world.ts';

function reply(world: PbxWorld) {
  assert.ok(world.reply, 'no reply yet: a When step must talk to the data endpoint first');
  return world.reply;
}

function httpReply(world: PbxWorld) {
  const r = reply(world);
  assert.ok(
    r.http,
    `expected an HTTP response; the reply does not start with a status line (${describeTcpOutcome(r.tcp)})`,
  );
  return r.http;
}

When('a monitoring host connects without sending a request', async function (this: PbxWorld) {
  await this.connectToEndpoint(undefined);
});

When('a monitoring host requests {string}', async function (this: PbxWorld, target: string) {
  await this.httpRequest('GET', target);
});

When(
  'a monitoring host sends a {string} request for {string}',
  async function (this: PbxWorld, method: string, target: string) {
    await this.httpRequest(method, target);
  },
);

When('an unlisted host connects without sending a request', async function (this: PbxWorld) {
  const address = this.pbx.unlistedClientAddress;
  if (!address) return this.notVerifiable(`target "${this.target.name}" names no unlisted client address`);
  await this.connectToEndpoint(undefined, { localAddress: address, timeoutMs: NO_DATA_TIMEOUT_MS });
  return undefined;
});

When('an unlisted host requests {string}', async function (this: PbxWorld, target: string) {
  const address = this.pbx.unlistedClientAddress;
  if (!address) return this.notVerifiable(`target "${this.target.name}" names no unlisted client address`);
  await this.httpRequest('GET', target, { localAddress: address, timeoutMs: NO_DATA_TIMEOUT_MS });
  return undefined;
});

Given(
  'a monitoring host that connects without sending a request receives the agent text',
  async function (this: PbxWorld) {
    const r = await this.connectToEndpoint(undefined);
    assertSnapshot(r.body, 'agent text');
  },
);

Then('it receives the {snapshot}', function (this: PbxWorld, kind: SnapshotKind) {
  const r = reply(this);
  assert.ok(r.body.length > 0, `nothing received (${describeTcpOutcome(r.tcp)})`);
  assertSnapshot(r.body, kind);
});

Then('the reply is raw text without an HTTP status line or headers', function (this: PbxWorld) {
  const r = reply(this);
  const start = r.tcp.bytes.subarray(0, 5).toString('latin1');
  assert.notEqual(start, 'HTTP/', 'the raw reply starts with an HTTP status line');
  assert.equal(r.http, undefined, 'the raw reply parses as an HTTP response');
  assert.ok(
    r.tcp.bytes.subarray(0, 3).equals(Buffer.from('<<<')),
    'the raw reply does not start with a section header',
  );
});

Then('the server closes the connection after the reply', function (this: PbxWorld) {
  const r = reply(this);
  assert.ok(r.tcp.connected, `the connection was never established (${describeTcpOutcome(r.tcp)})`);
  assert.equal(
    r.tcp.end,
    'peer-closed',
    `the server did not close the connection: ${describeTcpOutcome(r.tcp)}`,
  );
});

Then('the answer is a successful HTTP response', function (this: PbxWorld) {
  const http = httpReply(this);
  assert.ok(
    http.status >= 200 && http.status < 300,
    `status line "${http.statusLine}" is not a success (2xx)`,
  );
});

Then('the Content-Type is {string}', function (this: PbxWorld, expected: string) {
  const values = headerValues(httpReply(this), 'Content-Type');
  assert.equal(values.length, 1, `expected one Content-Type header, got ${values.length}`);
  assert.equal(normaliseMediaType(values[0]!), normaliseMediaType(expected));
});

Then(
  'the answer carries the header fields Content-Type, Content-Length and {string}',
  function (this: PbxWorld, connection: string) {
    const http = httpReply(this);
    const contentType = headerValue(http, 'Content-Type');
    assert.ok(contentType !== undefined && contentType !== '', `no Content-Type in:\n${http.head}`);
    const lengths = headerValues(http, 'Content-Length');
    assert.equal(lengths.length, 1, `expected one Content-Length header in:\n${http.head}`);
    assert.match(lengths[0]!, /^\d+$/, 'Content-Length is not a decimal number');
    const [name = '', value = ''] = connection.split(':').map((s) => s.trim());
    const tokens = headerValues(http, name).flatMap((v) => v.split(',').map((t) => t.trim().toLowerCase()));
    assert.ok(tokens.includes(value.toLowerCase()), `no "${connection}" in:\n${http.head}`);
  },
);

Then('Content-Length equals the byte length of the body', function (this: PbxWorld) {
  const r = reply(this);
  const http = httpReply(this);
  assert.equal(r.tcp.end, 'peer-closed', `the body may be incomplete: ${describeTcpOutcome(r.tcp)}`);
  const lengths = headerValues(http, 'Content-Length');
  assert.equal(lengths.length, 1, `expected one Content-Length header in:\n${http.head}`);
  assert.equal(Number(lengths[0]), http.body.length, 'Content-Length differs from the bytes of the body');
});

Then('the reply is valid UTF-8 and contains {string}', function (this: PbxWorld, text: string) {
  const r = reply(this);
  assert.ok(r.body.length > 0, `nothing received (${describeTcpOutcome(r.tcp)})`);
  assert.ok(isUtf8(r.body), 'the reply is not valid UTF-8');
  assert.ok(
    r.body.includes(Buffer.from(text, 'utf8')),
    `the reply does not contain "${text}" encoded as UTF-8`,
  );
});

Then('it gets no data', function (this: PbxWorld) {
  const r = reply(this);
  assert.equal(r.tcp.bytes.length, 0, `received ${r.tcp.bytes.length} bytes: ${describeTcpOutcome(r.tcp)}`);
  assert.notEqual(r.tcp.end, 'too-large');
});

Then('the connection is refused or dropped', function (this: PbxWorld) {
  const r = reply(this);
  assert.equal(
    r.tcp.connected,
    false,
    `the connection was accepted (${describeTcpOutcome(r.tcp)}); a stopped or closed endpoint refuses or drops it`,
  );
});

Then('the connection is accepted and closed without any reply', function (this: PbxWorld) {
  const r = reply(this);
  if (!r.tcp.connected) {
    // A network-level block hides the application-level check this clause is about.
    return this.notVerifiable(
      `the connection was not accepted (${r.tcp.errorCode ?? 'no answer'}): a firewall blocked it before the application-level check`,
    );
  }
  assert.equal(r.tcp.bytes.length, 0, `received ${r.tcp.bytes.length} bytes: ${describeTcpOutcome(r.tcp)}`);
  assert.ok(
    r.tcp.end === 'peer-closed' || r.tcp.end === 'peer-reset',
    `the server did not close the connection: ${describeTcpOutcome(r.tcp)}`,
  );
  return undefined;
});

Then('the answer has the status line {string}', function (this: PbxWorld, expected: string) {
  const http = httpReply(this);
  assert.equal(`${http.status} ${http.reason}`, expected, `status line was "${http.statusLine}"`);
});

Then('the reply is one text line starting with {string}', function (this: PbxWorld, prefix: string) {
  const r = reply(this);
  assert.equal(r.http, undefined, 'the raw reply is an HTTP response');
  const text = r.body.toString('utf8');
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  assert.equal(lines.length, 1, `expected one line, got ${lines.length}:\n${text}`);
  assert.ok(lines[0]!.startsWith(prefix), `the line does not start with "${prefix}": ${lines[0]}`);
});

Then(
  'the body is a JSON object whose only member is {string} holding a text',
  function (this: PbxWorld, member: string) {
    const r = reply(this);
    const value: unknown = JSON.parse(r.body.toString('utf8'));
    assert.ok(
      value !== null && typeof value === 'object' && !Array.isArray(value),
      'the body is not a JSON object',
    );
    assert.deepEqual(Object.keys(value), [member]);
    assert.equal(typeof (value as Record<string, unknown>)[member], 'string', `"${member}" is not a text`);
  },
);
