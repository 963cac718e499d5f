import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UnknownFieldError } from '../../../../simulators/shared/deep-merge.ts';
import { createControlDispatcher } from '../../../../simulators/shared/http/control-dispatch.ts';
import { ControlInputError } from '../../../../simulators/shared/http/control-input-error.ts';
import type { ControlRoute } from '../../../../simulators/shared/http/control-route.ts';

const seen: unknown[] = [];
const routes: ControlRoute[] = [
  {
    method: 'GET',
    path: '/things',
    handle: async ({ query }) => ({ status: 200, body: { since: query.get('since') } }),
  },
  {
    method: 'PUT',
    path: '/things',
    handle: async ({ body }) => {
      seen.push(body);
      return { status: 204 };
    },
  },
  { method: 'DELETE', path: '/things/{name}', handle: async ({ params }) => ({ status: 200, body: params }) },
  {
    method: 'POST',
    path: '/fail/input',
    handle: async () => {
      throw new ControlInputError('bad\nthing');
    },
  },
  {
    method: 'POST',
    path: '/fail/field',
    handle: async () => {
      throw new UnknownFieldError('a.b');
    },
  },
  {
    method: 'POST',
    path: '/fail/bug',
    handle: async () => {
      throw new TypeError('x is undefined');
    },
  },
];
const dispatch = createControlDispatcher(routes);

function parse(body: string | undefined): Record<string, unknown> {
  return JSON.parse(body ?? 'null') as Record<string, unknown>;
}

test('routes by method and path and hands over query, params and parsed body', async () => {
  const got = await dispatch({ method: 'GET', url: '/things?since=4' });
  assert.equal(got.status, 200);
  assert.match(got.headers['content-type'] ?? '', /^application\/json/);
  assert.deepEqual(parse(got.body), { since: '4' });
  const put = await dispatch({ method: 'PUT', url: '/things/', body: Buffer.from('{"a":[1]}') });
  assert.equal(put.status, 204);
  assert.equal(put.body, undefined);
  assert.deepEqual(seen.at(-1), { a: [1] });
  const deleted = await dispatch({ method: 'DELETE', url: '/things/render%2Derror' });
  assert.deepEqual(parse(deleted.body), { name: 'render-error' });
});

test('an empty body reaches the handler as undefined', async () => {
  await dispatch({ method: 'PUT', url: '/things', body: Buffer.from('  \n') });
  assert.equal(seen.at(-1), undefined);
});

test('unknown paths are 404 and known paths with another method are 405 with allow', async () => {
  const missing = await dispatch({ method: 'GET', url: '/nothing/here' });
  assert.equal(missing.status, 404);
  assert.equal(parse(missing.body)['error'], 'not_found');
  const wrong = await dispatch({ method: 'POST', url: '/things' });
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers['allow'], 'GET, PUT');
  assert.equal(parse(wrong.body)['error'], 'method_not_allowed');
  assert.equal((await dispatch({ method: 'DELETE', url: '/things/' })).status, 405);
});

test('bad JSON, bad UTF-8 and bad percent-encoding are 400 invalid_request with one line', async () => {
  for (const request of [
    { method: 'PUT', url: '/things', body: Buffer.from('{"a":') },
    { method: 'PUT', url: '/things', body: Buffer.from([0x7b, 0xff, 0x7d]) },
    { method: 'DELETE', url: '/things/%E0%A4%A' },
  ]) {
    const answer = await dispatch(request);
    assert.equal(answer.status, 400, request.url);
    const body = parse(answer.body);
    assert.equal(body['error'], 'invalid_request');
    assert.doesNotMatch(String(body['message']), /\n/);
  }
});

test('input errors are 400, anything else is 500, both as the JSON error body', async () => {
  const input = await dispatch({ method: 'POST', url: '/fail/input' });
  assert.deepEqual(
    [input.status, parse(input.body)],
    [400, { error: 'invalid_request', message: 'bad thing' }],
  );
  const field = await dispatch({ method: 'POST', url: '/fail/field' });
  assert.deepEqual(
    [field.status, parse(field.body)],
    [400, { error: 'invalid_request', message: 'unknown state field: a.b' }],
  );
  const bug = await dispatch({ method: 'POST', url: '/fail/bug' });
  assert.deepEqual(
    [bug.status, parse(bug.body)],
    [500, { error: 'internal_error', message: 'x is undefined' }],
  );
});
