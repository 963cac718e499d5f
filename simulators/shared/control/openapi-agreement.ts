import { z } from 'zod';
import { type ControlOperations, objectFields, pathParameters } from './control-operation.ts';

type Json = Record<string, unknown>;

/** What of an OpenAPI 3.1 document the agreement check reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: Json;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

function resolve(document: OpenApiDocument, node: unknown): Json | undefined {
  let current = node as Json | undefined;
  for (let hops = 0; hops < 10 && typeof current?.['$ref'] === 'string'; hops++) {
    const ref = current['$ref'] as string;
    if (!ref.startsWith('#/')) return undefined;
    current = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, part) => (at as Json | undefined)?.[part.replaceAll('~1', '/')], document) as
      | Json
      | undefined;
  }
  return current;
}

function jsonSchemaOf(document: OpenApiDocument, content: unknown): Json | undefined {
  const json = (content as Json | undefined)?.['application/json'] as Json | undefined;
  return resolve(document, json?.['schema']);
}

/** The fields of a declared object schema as JSON Schema (custom parts read as "any"). */
function declaredJson(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Json;
}

/** Where a documented property and its declaration differ in type, enumeration or range. */
function propertyDisagreements(where: string, documented: Json, declared: Json): string[] {
  const problems: string[] = [];
  const type = (s: Json) =>
    Array.isArray(s['type']) ? [...(s['type'] as unknown[])].map(String).sort().join() : s['type'];
  if (
    documented['type'] !== undefined &&
    declared['type'] !== undefined &&
    type(documented) !== type(declared)
  )
    problems.push(
      `${where}: documented type ${String(documented['type'])}, declared ${String(declared['type'])}`,
    );
  if (Array.isArray(documented['enum']) && Array.isArray(declared['enum'])) {
    const a = [...(documented['enum'] as unknown[])].map(String).sort();
    const b = [...(declared['enum'] as unknown[])].map(String).sort();
    if (a.join() !== b.join()) problems.push(`${where}: documented enum ${a}, declared ${b}`);
  }
  for (const bound of ['minimum', 'maximum', 'maxLength', 'pattern'] as const) {
    if (
      documented[bound] !== undefined &&
      declared[bound] !== undefined &&
      documented[bound] !== declared[bound]
    )
      problems.push(
        `${where}: documented ${bound} ${String(documented[bound])}, declared ${String(declared[bound])}`,
      );
  }
  return problems;
}

/**
 * Holds an OpenAPI document to a group of declared operations and returns every disagreement (an
 * empty list when they agree): each declaration is documented at its method and path with its
 * name as `operationId`, the same path and query parameters, a request body exactly when it takes
 * one, with the same fields, required fields, types, enumerations and ranges, and the declared
 * success status with or without a body. `documentedOnly` selects the documented operations the
 * group must cover in turn (e.g. by tag); none may be left undeclared.
 */
export function openApiDisagreements(
  document: OpenApiDocument,
  operations: ControlOperations,
  documentedOnly: (operation: Json) => boolean = () => true,
): string[] {
  const problems: string[] = [];
  const declared = new Set<string>();
  for (const [name, operation] of Object.entries(operations)) {
    const key = `${operation.method} ${operation.path}`;
    declared.add(key);
    const documented = document.paths[operation.path]?.[operation.method.toLowerCase()] as Json | undefined;
    if (!documented) {
      problems.push(`${name}: ${key} is not documented`);
      continue;
    }
    if (documented['operationId'] !== name)
      problems.push(`${key}: documented operationId ${String(documented['operationId'])}, declared ${name}`);
    // Parameters of the path item hold for each of its operations, beside the operation's own.
    const parameters = [
      ...((document.paths[operation.path]?.['parameters'] as unknown[] | undefined) ?? []),
      ...((documented['parameters'] as unknown[] | undefined) ?? []),
    ].map((p) => resolve(document, p) ?? {});
    const named = (where: string) =>
      parameters
        .filter((p) => p['in'] === where)
        .map((p) => String(p['name']))
        .filter((name, i, all) => all.indexOf(name) === i)
        .sort()
        .join();
    if (named('path') !== [...pathParameters(operation.path)].sort().join())
      problems.push(`${key}: documented path parameters ${named('path')}`);
    if (named('query') !== [...(operation.query ?? [])].sort().join())
      problems.push(
        `${key}: documented query parameters ${named('query')}, declared ${operation.query ?? []}`,
      );
    const fields = objectFields(operation.input);
    const inBody = fields?.filter(
      (f) => !pathParameters(operation.path).includes(f) && !(operation.query ?? []).includes(f),
    );
    const takesBody =
      operation.input !== undefined &&
      (fields === undefined || operation.bodyField !== undefined || (inBody?.length ?? 0) > 0);
    const requestBody = resolve(document, documented['requestBody']);
    if (takesBody !== (requestBody !== undefined))
      problems.push(`${key}: ${takesBody ? 'declares' : 'documents'} a request body the other side lacks`);
    if (requestBody && operation.input && fields && operation.bodyField === undefined) {
      const schema = jsonSchemaOf(document, requestBody['content']);
      const json = declaredJson(operation.input);
      const properties = (json['properties'] ?? {}) as Record<string, Json>;
      const documentedProperties = schema?.['properties'] as Record<string, unknown> | undefined;
      if (documentedProperties) {
        const a = Object.keys(documentedProperties).sort().join();
        const b = (inBody ?? []).sort().join();
        if (a !== b) problems.push(`${key}: documented body fields ${a}, declared ${b}`);
        // Path and query parameters are required by the template, not by the body.
        const required = (s: unknown) =>
          ((s as string[] | undefined) ?? [])
            .filter((f) => inBody?.includes(f))
            .sort()
            .join();
        if (required(schema?.['required']) !== required(json['required']))
          problems.push(
            `${key}: documented required ${required(schema?.['required'])}, declared ${required(json['required'])}`,
          );
        for (const [field, property] of Object.entries(documentedProperties)) {
          const mine = properties[field];
          const theirs = resolve(document, property);
          if (mine && theirs) problems.push(...propertyDisagreements(`${key} ${field}`, theirs, mine));
        }
      }
    }
    const success = String(operation.status ?? (operation.output ? 200 : 204));
    const responses = (documented['responses'] ?? {}) as Record<string, unknown>;
    const answer = resolve(document, responses[success]);
    if (!answer) problems.push(`${key}: the declared success ${success} is not documented`);
    else if ((answer['content'] !== undefined) !== (operation.output !== undefined))
      problems.push(
        `${key}: ${operation.output ? 'declares' : 'documents'} an answer body the other side lacks`,
      );
  }
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const documented = item[method] as Json | undefined;
      const key = `${method.toUpperCase()} ${path}`;
      if (documented && documentedOnly(documented) && !declared.has(key))
        problems.push(`${key} (${String(documented['operationId'])}) is documented but not declared`);
    }
  }
  return problems;
}
