import { stringify } from 'yaml';
import { z } from 'zod';
import { SCHEMA_FILES } from './control-fields.ts';
import {
  type ControlOperation,
  type ControlOperations,
  objectFields,
  pathParameters,
} from './control-operation.ts';

type Json = Record<string, unknown>;

/** A response every operation of a plane may give, by its name under `components.responses`. */
export interface SharedResponse {
  description: string;
  examples?: Record<string, unknown>;
}

/**
 * What a control plane's OpenAPI document says beyond its operations: who it is for (`info`),
 * where it listens (`servers`), its groups (`tags`), the error body its dispatcher writes and the
 * error answers any operation may give. Everything under `paths` comes from the declarations.
 */
export interface ControlDocumentHead {
  /** The file under `schemas/` the document is written to. */
  file: string;
  info: Json;
  servers: Json[];
  tags: { name: string; description: string }[];
  /** The tag of an operation that declares none. */
  defaultTag?: string;
  /** The body of every error answer of the plane (`components.schemas.Error`). */
  errorBody: z.ZodType;
  /** Error answers shared by operations (`components.responses`). */
  responses: Record<string, SharedResponse>;
  /** The shared error answers an operation may give, by status (names of `responses`). */
  errorsOf(operation: ControlOperation): Readonly<Record<number, string | undefined>>;
  /** The declarations the document is generated from, in the order they are listed. */
  operations: ControlOperations;
}

/** The first lines of every generated document. */
export const GENERATED_HEAD = [
  '# Generated from the control-operation declarations by `npm run generate:openapi`',
  '# (scripts/generate-control-openapi.ts); do not edit: change the declaration and generate again.',
];

const REF_PREFIX = '#/components/schemas/';

/** Whether an operation takes a body, and which schema it has (the inverse of the client's wire form). */
function bodyOf(operation: ControlOperation): z.ZodType | undefined {
  const input = operation.input;
  if (!input) return undefined;
  const fields = objectFields(input);
  if (!fields) return input;
  const shape = (input as unknown as { shape: Record<string, z.ZodType> }).shape;
  if (operation.bodyField !== undefined) return shape[operation.bodyField];
  const outside = [...pathParameters(operation.path), ...(operation.query ?? [])];
  const inBody = fields.filter((f) => !outside.includes(f));
  if (inBody.length === 0) return undefined;
  if (outside.length === 0) return input;
  const mask = Object.fromEntries(outside.filter((f) => fields.includes(f)).map((f) => [f, true] as const));
  return (input as unknown as z.ZodObject).omit(mask as never);
}

/** A field of an object input (a path or query parameter). */
function fieldOf(operation: ControlOperation, name: string): z.ZodType {
  const shape = (operation.input as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  const field = shape?.[name];
  if (!field) throw new Error(`${operation.method} ${operation.path}: ${name} is not a field of its input`);
  return field;
}

/**
 * Converts named parts to JSON Schema in one go, as `io` reads them: the schemas given to `named`
 * become definitions (returned by name), a `schemaFile` becomes a `$ref` to its file.
 */
function toJsonSchemas(
  parts: Record<string, z.ZodType>,
  io: 'input' | 'output',
): { parts: Record<string, Json>; definitions: Record<string, Json> } {
  const json = z.toJSONSchema(z.object(parts), {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'throw',
    override(context) {
      const file = SCHEMA_FILES.get(context.zodSchema as unknown as z.ZodType);
      if (!file) return;
      for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
      context.jsonSchema.$ref = `./${file}`;
    },
  }) as Json;
  const text = JSON.stringify(json).replaceAll('"#/$defs/', `"${REF_PREFIX}`);
  const rewritten = JSON.parse(text) as Json;
  return {
    parts: (rewritten['properties'] ?? {}) as Record<string, Json>,
    definitions: (rewritten['$defs'] ?? {}) as Record<string, Json>,
  };
}

/** Renames references to the definitions in `names` to their `Input` form. */
function toInputNames(value: unknown, names: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => toInputNames(v, names));
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string' && names.has(item.slice(REF_PREFIX.length)))
      out[key] = `${item}Input`;
    else out[key] = toInputNames(item, names);
  }
  return out;
}

/**
 * The OpenAPI 3.1 document of a control plane, generated from its declarations and its head:
 * each operation at its method and path with its name as `operationId`, its tag, summary and
 * description, its path and query parameters and request body from its input schema, its answer
 * from its output schema (or none: 204), and its error answers (the plane's shared ones and the
 * refusals it declares). Named schemas are listed once under `components.schemas`; a named schema
 * whose input form differs from its output form (defaults, strictness) is listed as `<name>Input`
 * beside it.
 */
export function controlDocument(head: ControlDocumentHead): Json {
  const inputs: Record<string, z.ZodType> = {};
  const outputs: Record<string, z.ZodType> = { __error: head.errorBody };
  for (const [name, operation] of Object.entries(head.operations)) {
    const body = bodyOf(operation);
    if (body) inputs[`${name}.body`] = body;
    for (const parameter of [...pathParameters(operation.path), ...(operation.query ?? [])])
      inputs[`${name}.${parameter}`] = fieldOf(operation, parameter);
    if (operation.output) outputs[name] = operation.output;
    for (const [code, refusal] of Object.entries(operation.refusals ?? {}))
      if (typeof refusal !== 'string') outputs[`${name}.${code}`] = refusal.body;
  }
  const read = toJsonSchemas(inputs, 'input');
  const written = toJsonSchemas(outputs, 'output');
  const definitions: Record<string, Json> = { ...written.definitions };
  const renamed = new Set<string>();
  for (const [name, schema] of Object.entries(read.definitions)) {
    const other = definitions[name];
    if (other === undefined) definitions[name] = schema;
    else if (JSON.stringify(other) !== JSON.stringify(schema)) renamed.add(name);
  }
  for (const name of renamed) definitions[`${name}Input`] = read.definitions[name] as Json;
  const inputParts = toInputNames(read.parts, renamed) as Record<string, Json>;
  for (const name of renamed)
    definitions[`${name}Input`] = toInputNames(definitions[`${name}Input`], renamed) as Json;

  const paths: Record<string, Json> = {};
  for (const [name, operation] of Object.entries(head.operations)) {
    const item = paths[operation.path] ?? {};
    paths[operation.path] = item;
    const parameters = [
      ...pathParameters(operation.path).map((p) => ({ p, where: 'path' })),
      ...(operation.query ?? []).map((p) => ({ p, where: 'query' })),
    ].map(({ p, where }) => {
      const { description, ...schema } = inputParts[`${name}.${p}`] as Json;
      const optional = fieldOf(operation, p).safeParse(undefined).success;
      return {
        name: p,
        in: where,
        required: where === 'path' || !optional,
        ...(description === undefined ? {} : { description }),
        schema,
      };
    });
    const body = inputParts[`${name}.body`];
    const status = operation.status ?? (operation.output ? 200 : 204);
    const success: Json = { description: operation.answers ?? (operation.output ? 'The answer.' : 'Done.') };
    if (operation.output)
      success['content'] = {
        [operation.produces ?? 'application/json']: { schema: written.parts[name] },
      };
    const responses: Json = { [String(status)]: success };
    const errors: [number, Json][] = [
      ...Object.entries(head.errorsOf(operation))
        .filter(([, ref]) => ref !== undefined)
        .map(([code, ref]) => [Number(code), { $ref: `#/components/responses/${ref}` }] as [number, Json]),
      ...Object.entries(operation.refusals ?? {}).map(
        ([code, refusal]) =>
          [
            Number(code),
            {
              description: typeof refusal === 'string' ? refusal : refusal.description,
              content: {
                'application/json': {
                  schema:
                    typeof refusal === 'string'
                      ? { $ref: `${REF_PREFIX}Error` }
                      : written.parts[`${name}.${code}`],
                },
              },
            },
          ] as [number, Json],
      ),
    ];
    for (const [code, response] of errors.sort((a, b) => a[0] - b[0])) responses[String(code)] = response;
    item[operation.method.toLowerCase()] = {
      operationId: name,
      tags: [operation.tag ?? head.defaultTag ?? head.tags[0]?.name],
      summary: operation.summary,
      ...(operation.description === undefined ? {} : { description: operation.description }),
      ...(parameters.length === 0 ? {} : { parameters }),
      ...(body === undefined
        ? {}
        : { requestBody: { required: true, content: { 'application/json': { schema: body } } } }),
      responses,
    };
  }
  const errorSchema = written.parts['__error'] as Json;
  return {
    openapi: '3.1.0',
    info: head.info,
    servers: head.servers,
    tags: head.tags,
    paths,
    components: {
      responses: Object.fromEntries(
        Object.entries(head.responses).map(([name, response]) => [
          name,
          {
            description: response.description,
            content: {
              'application/json': {
                schema: { $ref: `${REF_PREFIX}Error` },
                ...(response.examples ? { examples: response.examples } : {}),
              },
            },
          },
        ]),
      ),
      schemas: Object.fromEntries(
        Object.entries({ Error: errorSchema, ...definitions }).sort(([a], [b]) =>
          a === 'Error' ? -1 : b === 'Error' ? 1 : a.localeCompare(b),
        ),
      ),
    },
  };
}

/** The document as the text of its file: the generated head, then YAML. */
export function controlDocumentText(head: ControlDocumentHead): string {
  return `${GENERATED_HEAD.join('\n')}\n${stringify(controlDocument(head), { lineWidth: 100, aliasDuplicateObjects: false })}`;
}
