import assert from 'node:assert/strict';
import pactum from 'pactum';
import { projectPath } from '../../support/project-root.ts';
import { schemaValidator } from '../../support/schema-validator.ts';
import type { ApiExchange, ApiResponse } from './api-exchange.ts';

/** The schemas of interface A (schemas/maintenance/). */
export type MaintenanceSchema =
  | 'ok'
  | 'error'
  | 'body-too-large'
  | 'command-list'
  | 'completion-event'
  | 'token-created'
  | 'token-info';

/** Validates a value against `schemas/maintenance/<name>.schema.json`; fails with ajv's errors. */
export function assertMatchesSchema(value: unknown, name: MaintenanceSchema, what: string): void {
  const path = projectPath('schemas', 'maintenance', `${name}.schema.json`);
  const validator = schemaValidator(path);
  assert.ok(validator, `schema ${path} is missing`);
  const verdict = validator.validate(value);
  assert.ok(
    verdict.ok,
    `${what} does not match schemas/maintenance/${name}.schema.json: ${verdict.ok ? '' : verdict.errors}`,
  );
}

function describe(exchange: ApiExchange): string {
  return `${exchange.request.method} ${new URL(exchange.url).pathname}`;
}

/** The answer as pactum's `expect` takes it; fails when no HTTP answer came. */
export function answerOf(exchange: ApiExchange): ApiResponse {
  assert.ok(exchange.response, `${describe(exchange)}: no HTTP answer (${exchange.error})`);
  return exchange.response;
}

/** The parsed JSON body; fails when the body is not JSON. */
export function jsonBody(exchange: ApiExchange): unknown {
  answerOf(exchange);
  assert.ok(
    exchange.json !== undefined,
    `${describe(exchange)}: the body is not JSON: ${JSON.stringify(exchange.text.slice(0, 200))}`,
  );
  return exchange.json;
}

function schemaForStatus(status: number): MaintenanceSchema | undefined {
  if (status === 413) return 'body-too-large';
  if (status === 401 || status === 404 || status >= 500) return 'error';
  return undefined;
}

/** Status and exactly this JSON body; the body is also validated against the schema for its status. */
export function assertExactAnswer(exchange: ApiExchange, status: number, body: unknown): void {
  const response = answerOf(exchange);
  pactum.expect(response).to.have.status(status, describe(exchange));
  pactum.expect(response).to.have.json(body);
  const schema = status === 200 ? 'ok' : schemaForStatus(status);
  if (schema) assertMatchesSchema(jsonBody(exchange), schema, `the ${status} body`);
}

/** 200 with `{"status": "ok"}` (MAINT-POST-ACCEPTED). */
export function assertAccepted(exchange: ApiExchange): void {
  assertExactAnswer(exchange, 200, { status: 'ok' });
}

/** A transport error: this status and a JSON object `{status: "error", message}` (MAINT-ERR-SHAPE). */
export function assertErrorAnswer(exchange: ApiExchange, status: number, message: string): void {
  const response = answerOf(exchange);
  pactum.expect(response).to.have.status(status, describe(exchange));
  pactum.expect(response).to.have.jsonLike({ status: 'error', message });
  assertMatchesSchema(jsonBody(exchange), 'error', `the ${status} body`);
}

/** 413 with the different shape `{"ok": false, "error": "body-too-large"}` (MAINT-ERR-413-BODY-TOO-LARGE). */
export function assertBodyTooLarge(exchange: ApiExchange): void {
  assertExactAnswer(exchange, 413, { ok: false, error: 'body-too-large' });
}

/** 200 with `{"commands": [string, …]}` (MAINT-GET-COMMANDS); returns the names. */
export function assertCommandList(exchange: ApiExchange): string[] {
  const response = answerOf(exchange);
  pactum.expect(response).to.have.status(200, describe(exchange));
  const body = jsonBody(exchange) as { commands?: unknown };
  assert.ok(
    body !== null && typeof body === 'object' && Array.isArray(body.commands),
    `the body has no list "commands": ${exchange.text.slice(0, 200)}`,
  );
  for (const name of body.commands)
    assert.equal(typeof name, 'string', `a command name is not a string: ${JSON.stringify(name)}`);
  assertMatchesSchema(body, 'command-list', 'the command list');
  return body.commands as string[];
}

/** The media type of `Content-Type` without parameters, lower-cased. */
export function mediaType(exchange: ApiExchange): string | undefined {
  const value = answerOf(exchange).headers['content-type'];
  return value?.split(';')[0]?.trim().toLowerCase();
}

/** `Content-Type: application/json` (parameters such as a charset allowed) and a JSON body (MAINT-JSON-RESPONSES). */
export function assertJsonResponse(exchange: ApiExchange): void {
  answerOf(exchange);
  assert.equal(
    mediaType(exchange),
    'application/json',
    `${describe(exchange)}: Content-Type is ${JSON.stringify(answerOf(exchange).headers['content-type'])}`,
  );
  jsonBody(exchange);
}
