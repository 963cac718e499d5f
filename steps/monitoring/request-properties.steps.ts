/** Bounded properties over generated requests, run against the live data endpoint. */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { describeTcpOutcome } from '../../src/core/tcp-exchange.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { headerValue, headerValues } from '../support/http-message.ts';
import {
  acceptedMethod,
  anyPath,
  formatToken,
  unknownFormatValue,
  unknownPath,
} from '../support/request-arbitraries.ts';
import { classifySnapshot, kindOfToken, type SnapshotKind } from '../support/snapshot-format.ts';
import type { EndpointReply, PbxWorld } from '../support/world.ts';

async function get(world: PbxWorld, target: string, method = 'GET'): Promise<EndpointReply> {
  return world.httpRequest(method, target, { evidence: false });
}

function assertSuccessWith(reply: EndpointReply, request: string, kind: SnapshotKind): void {
  assert.ok(reply.http, `${request}: no HTTP response (${describeTcpOutcome(reply.tcp)})`);
  assert.ok(
    reply.http.status >= 200 && reply.http.status < 300,
    `${request}: status line "${reply.http.statusLine}"`,
  );
  const found = classifySnapshot(reply.body);
  assert.equal(found, kind, `${request}: expected the ${kind}, got ${found}`);
}

Then(
  'every generated request with a known format parameter receives the format it names \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    await assertLiveProperty(
      this,
      'format parameter decides',
      fc.asyncProperty(anyPath, formatToken, async (path, token) => {
        const target = `${path}?format=${token}`;
        assertSuccessWith(await get(this, target), `GET ${target}`, kindOfToken(token)!);
      }),
      runs,
    );
  },
);

Then(
  'every generated request for an unknown path receives the agent text as a successful response \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    await assertLiveProperty(
      this,
      'unknown path gives the default format',
      fc.asyncProperty(unknownPath, async (path) => {
        assertSuccessWith(await get(this, path), `GET ${path}`, 'agent text');
      }),
      runs,
    );
  },
);

Then(
  'every generated request with an unknown format value receives the agent text as a successful response \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    await assertLiveProperty(
      this,
      'unknown format value gives the default format',
      fc.asyncProperty(fc.oneof(fc.constant('/'), unknownPath), unknownFormatValue, async (path, value) => {
        const target = `${path}?format=${value}`;
        assertSuccessWith(await get(this, target), `GET ${target}`, 'agent text');
      }),
      runs,
    );
  },
);

Then(
  'for every generated GET request Content-Length equals the byte length of the body \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const query = fc.option(fc.oneof(formatToken, unknownFormatValue), { nil: undefined });
    await assertLiveProperty(
      this,
      'Content-Length is the body length',
      fc.asyncProperty(anyPath, query, async (path, format) => {
        const target = format === undefined ? path : `${path}?format=${format}`;
        const reply = await get(this, target);
        assert.ok(reply.http, `GET ${target}: no HTTP response (${describeTcpOutcome(reply.tcp)})`);
        assert.equal(reply.tcp.end, 'peer-closed', `GET ${target}: ${describeTcpOutcome(reply.tcp)}`);
        const lengths = headerValues(reply.http, 'Content-Length');
        assert.equal(lengths.length, 1, `GET ${target}: expected one Content-Length in\n${reply.http.head}`);
        assert.equal(
          Number(lengths[0]),
          reply.http.body.length,
          `GET ${target}: Content-Length differs from the body`,
        );
      }),
      runs,
    );
  },
);

Then(
  'every generated request with method GET, POST, HEAD or OPTIONS is answered in HTTP mode with a successful status \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    await assertLiveProperty(
      this,
      'accepted methods are answered in HTTP mode',
      fc.asyncProperty(acceptedMethod, anyPath, async (method, path) => {
        const reply = await get(this, path, method);
        const request = `${method} ${path}`;
        assert.ok(reply.http, `${request}: no HTTP response (${describeTcpOutcome(reply.tcp)})`);
        assert.ok(
          reply.http.status >= 200 && reply.http.status < 300,
          `${request}: "${reply.http.statusLine}"`,
        );
        assert.ok(headerValue(reply.http, 'Content-Type'), `${request}: no Content-Type`);
        assert.equal(
          headerValues(reply.http, 'Content-Length').length,
          1,
          `${request}: no single Content-Length`,
        );
        const connection = headerValues(reply.http, 'Connection').flatMap((v) =>
          v.toLowerCase().split(/\s*,\s*/),
        );
        assert.ok(connection.includes('close'), `${request}: no "Connection: close"`);
      }),
      runs,
    );
  },
);
