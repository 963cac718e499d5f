import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { fields, integer, oneOf, text } from '../../../../simulators/shared/control/control-fields.ts';
import { defineOperations } from '../../../../simulators/shared/control/control-operation.ts';
import {
  type OpenApiDocument,
  openApiDisagreements,
} from '../../../../simulators/shared/control/openapi-agreement.ts';

const OPERATIONS = defineOperations({
  renameRoom: {
    method: 'PATCH',
    path: '/rooms/{room}',
    summary: 'Renames a room',
    actsOn: 'rooms',
    input: fields({ room: text(20, 1), name: text(40, 1), note: z.string().nullable().optional() }),
    output: z.object({ room: z.string() }),
  },
  deleteRoom: {
    method: 'DELETE',
    path: '/rooms/{room}',
    summary: 'Removes a room',
    actsOn: 'rooms',
    input: fields({ room: text(20, 1) }),
  },
  dim: {
    method: 'PUT',
    path: '/dim',
    summary: 'Dims every lamp',
    actsOn: 'lamps',
    input: fields({ level: integer(0, 100), mode: oneOf(['soft', 'hard']) }),
  },
});

/** A document that agrees: the room parameter on the path item, nullable as a type list. */
function agreeing(): OpenApiDocument {
  return {
    paths: {
      '/rooms/{room}': {
        parameters: [{ name: 'room', in: 'path', required: true, schema: { type: 'string' } }],
        patch: {
          operationId: 'renameRoom',
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name'],
                  properties: {
                    name: { type: 'string', maxLength: 40 },
                    note: { type: ['null', 'string'] },
                  },
                },
              },
            },
          },
          responses: { '200': { content: { 'application/json': { schema: { type: 'object' } } } } },
        },
        delete: { operationId: 'deleteRoom', responses: { '204': { description: 'Removed' } } },
      },
      '/dim': {
        put: {
          operationId: 'dim',
          requestBody: { $ref: '#/components/requestBodies/Dim' },
          responses: { '204': { description: 'Dimmed' } },
        },
      },
    },
    components: {
      requestBodies: {
        Dim: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['level', 'mode'],
                properties: {
                  level: { type: 'integer', minimum: 0, maximum: 100 },
                  mode: { enum: ['hard', 'soft'] },
                },
              },
            },
          },
        },
      },
    },
  };
}

test('a document that agrees with the declarations gives no disagreement', () => {
  assert.deepEqual(openApiDisagreements(agreeing(), OPERATIONS), []);
});

test('path-item parameters count for every operation of the path, and are not body fields', () => {
  const document = agreeing();
  const item = document.paths['/rooms/{room}'] as Record<string, unknown>;
  delete item['parameters'];
  assert.deepEqual(openApiDisagreements(document, OPERATIONS), [
    'PATCH /rooms/{room}: documented path parameters ',
    'DELETE /rooms/{room}: documented path parameters ',
  ]);
});

test('each kind of disagreement is named: range, enumeration, type, required, undeclared, undocumented', () => {
  const document = agreeing();
  const dim = (document.components as { requestBodies: { Dim: unknown } }).requestBodies.Dim as {
    content: { 'application/json': { schema: { required: string[]; properties: Record<string, object> } } };
  };
  const schema = dim.content['application/json'].schema;
  schema.properties['level'] = { type: 'integer', minimum: 0, maximum: 10 };
  schema.properties['mode'] = { enum: ['soft'] };
  const rename = (document.paths['/rooms/{room}'] as { patch: { requestBody: unknown } }).patch
    .requestBody as { content: { 'application/json': { schema: Record<string, unknown> } } };
  rename.content['application/json'].schema['required'] = [];
  (rename.content['application/json'].schema['properties'] as Record<string, object>)['note'] = {
    type: 'string',
  };
  document.paths['/extra'] = { get: { operationId: 'extra', responses: {} } };
  delete document.paths['/rooms/{room}']?.['delete'];
  assert.deepEqual(openApiDisagreements(document, OPERATIONS).sort(), [
    'GET /extra (extra) is documented but not declared',
    'PATCH /rooms/{room} note: documented type string, declared string,null',
    'PATCH /rooms/{room}: documented required , declared name',
    'PUT /dim level: documented maximum 10, declared 100',
    'PUT /dim mode: documented enum soft, declared hard,soft',
    'deleteRoom: DELETE /rooms/{room} is not documented',
  ]);
});
