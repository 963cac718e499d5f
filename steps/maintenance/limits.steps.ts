/** Body-size limit and the absence of a rate limit (maintenance-and-fleet-api.md, "Limits"). */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import type { PbxWorld } from '../support/world.ts';
import { assertAccepted, assertBodyTooLarge, assertCommandList } from './support/api-answers.ts';
import type { ApiAuth, ApiExchange } from './support/api-exchange.ts';
import {
  COMMAND_LIST_PATH,
  clientAuth,
  commandPath,
  jsonBodyOfSize,
  markBeforeCommand,
} from './support/api-requests.ts';
import { LARGE_BODY_TIMEOUT_MS, sendApiRequest } from './support/maintenance-client.ts';

const RAPID_ANSWERS = memoryKey<ApiExchange[]>('rapidAnswers');

/** 1 MiB: the largest body interface A takes (MAINT-POST-BODY-UP-TO-1MIB). */
const LIMIT = 1_048_576;

/**
 * Posts a body of exactly `bytes` bytes. Up to the limit it goes through pactum as text (ASCII,
 * so characters are bytes); above it through node:http, which keeps reading the answer when the
 * server answers 413 before the body is through.
 */
function postSized(
  world: PbxWorld,
  command: string,
  auth: ApiAuth,
  bytes: number,
  quiet = false,
): Promise<ApiExchange> {
  const text = jsonBodyOfSize(bytes);
  return sendApiRequest(
    world,
    {
      method: 'POST',
      path: commandPath(command),
      auth,
      body: bytes <= LIMIT ? text : { kind: 'bytes', bytes: Buffer.from(text, 'ascii') },
      ...(bytes === 0 ? { headers: { 'Content-Length': '0' } } : {}),
      timeoutMs: LARGE_BODY_TIMEOUT_MS,
    },
    quiet ? { evidence: false, record: false } : {},
  );
}

When(
  'the API client posts {string} with a JSON body of {int} bytes',
  async function (this: PbxWorld, command: string, bytes: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    await markBeforeCommand(this, command);
    await postSized(this, command, auth, bytes);
    return undefined;
  },
);

Then(
  'every body of a generated size from 0 to 1048576 bytes is accepted with 200 and status ok \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    const size = fc.oneof(
      fc.constantFrom(0, 1, 2, 13, 14, LIMIT - 1, LIMIT),
      fc.integer({ min: 0, max: LIMIT }),
    );
    await assertLiveProperty(
      this,
      'bodies up to 1 MiB are accepted',
      fc.asyncProperty(size, async (bytes) => {
        assertAccepted(await postSized(this, 'DeleteTemporaryFiles', auth, bytes, true));
      }),
      runs,
    );
    return undefined;
  },
);

Then(
  'every body of a generated size from 1048577 to 8388608 bytes is answered 413 with the body-too-large shape \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    const size = fc.oneof(
      fc.constantFrom(LIMIT + 1, LIMIT + 2),
      fc.integer({ min: LIMIT + 1, max: 8 * LIMIT }),
    );
    await assertLiveProperty(
      this,
      'bodies above 1 MiB get 413',
      fc.asyncProperty(size, async (bytes) => {
        assertBodyTooLarge(await postSized(this, 'DeleteTemporaryFiles', auth, bytes, true));
      }),
      runs,
    );
    return undefined;
  },
);

When(
  /^the API client streams a body of (\d+) bytes (without|with its) Content-Length to "([^"]*)"$/,
  async function (this: PbxWorld, total: string, how: string, command: string) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    const exchange = await sendApiRequest(this, {
      method: 'POST',
      path: commandPath(command),
      auth,
      body: {
        kind: 'stream',
        totalBytes: Number(total),
        chunkBytes: 65_536,
        declareLength: how === 'with its',
      },
      timeoutMs: LARGE_BODY_TIMEOUT_MS,
    });
    assert.ok(exchange.response, `no answer to a streamed body: ${exchange.error}`);
    return undefined;
  },
);

When(
  '{int} clients make {int} calls with the token as fast as they can',
  async function (this: PbxWorld, clients: number, calls: number) {
    const auth = await clientAuth(this);
    if (auth === 'skipped') return auth;
    let next = 0;
    const answers: ApiExchange[] = [];
    const client = async () => {
      for (let i = next++; i < calls; i = next++) {
        const request =
          i % 2 === 0
            ? { method: 'GET', path: COMMAND_LIST_PATH, auth }
            : { method: 'POST', path: commandPath('DeleteTemporaryFiles'), auth, body: '{}' };
        answers.push(await sendApiRequest(this, request, { evidence: false, record: false }));
      }
    };
    await Promise.all(Array.from({ length: clients }, client));
    this.memory.set(RAPID_ANSWERS, answers);
    const statuses: Record<string, number> = {};
    for (const answer of answers)
      statuses[String(answer.status ?? answer.error)] =
        (statuses[String(answer.status ?? answer.error)] ?? 0) + 1;
    this.evidence({ exchange: `${calls} calls from ${clients} clients`, details: { statuses } });
    return undefined;
  },
);

Then('every one of those calls was answered 200 and none 429', function (this: PbxWorld) {
  const answers = this.memory.get(RAPID_ANSWERS);
  assert.ok(answers && answers.length > 0, 'no calls were made');
  for (const answer of answers) {
    assert.notEqual(answer.status, 429, 'a call was refused for its rate');
    if (answer.request.method === 'GET') assertCommandList(answer);
    else assertAccepted(answer);
  }
});
