import type { z } from 'zod';
import { describeValue, isPlainObject } from '../http/control-input.ts';
import { ControlInputError } from '../http/control-input-error.ts';
import type { ControlRequest, ControlRoute } from '../http/control-route.ts';
import { checkInput } from './check-input.ts';
import {
  type ControlOperation,
  type ControlOperations,
  type Effects,
  objectFields,
  pathParameters,
} from './control-operation.ts';
import { type EventStream, streamAnswer } from './event-stream.ts';

export interface ServeOptions {
  /**
   * A path prefix the whole group is mounted under, which may hold parameters, e.g.
   * `/pbx/{siteId}` for one control plane serving many PBXs. Its parameters go to the effects
   * factory, never into an operation's input.
   */
  prefix?: string;
}

/**
 * The server side derived from the declarations: one route per operation for the shared
 * control-plane dispatcher (simulators/shared/http/). Each route takes its input from the path,
 * the query and the body as the declaration says, checks it against the declared schema (400
 * `invalid_request` with one line otherwise), runs the effect and answers its result (200 or the
 * declared status) or 204. `effects` is the group's effects, or a factory of them for the
 * parameters of the mount prefix (the PBX of a site).
 */
export function serveOperations<T extends ControlOperations>(
  operations: T,
  effects: Effects<T> | ((mount: Record<string, string>) => Effects<T> | Promise<Effects<T>>),
  options: ServeOptions = {},
): ControlRoute[] {
  const prefix = options.prefix ?? '';
  const mountNames = pathParameters(prefix);
  return Object.entries(operations).map(([name, operation]) => ({
    method: operation.method,
    path: `${prefix}${operation.path}`,
    async handle(request) {
      const mount: Record<string, string> = {};
      for (const key of mountNames) mount[key] = request.params[key] ?? '';
      const input = operation.input ? checkInput(operation.input, wireInput(operation, request)) : undefined;
      const group = typeof effects === 'function' ? await effects(mount) : effects;
      const effect = group[name] as (input: unknown) => unknown;
      const result = await effect(input);
      if (operation.produces === 'text/event-stream')
        return { status: 200, stream: streamAnswer(result as EventStream) };
      if (!operation.output) return { status: operation.status ?? 204 };
      return { status: operation.status ?? 200, body: result };
    },
  }));
}

/** Assembles an operation's input from a request, the inverse of the client's `wireRequest`. */
function wireInput(operation: ControlOperation, request: ControlRequest): unknown {
  const fields = objectFields(operation.input);
  if (!fields) return request.body;
  const input: Record<string, unknown> = {};
  const inPath = pathParameters(operation.path);
  const inQuery = operation.query ?? [];
  const inBody = fields.filter((f) => !inPath.includes(f) && !inQuery.includes(f));
  if (operation.bodyField !== undefined) {
    if (request.body !== undefined) input[operation.bodyField] = request.body;
  } else if (inBody.length > 0 && request.body !== undefined) {
    if (!isPlainObject(request.body))
      throw new ControlInputError(
        `the request body must be a JSON object, got ${describeValue(request.body)}`,
      );
    Object.assign(input, request.body);
  }
  for (const key of inPath) input[key] = request.params[key];
  for (const key of inQuery) {
    const value = request.query.get(key);
    if (value !== null) input[key] = fromQuery(value, shapeOf(operation.input)?.[key]);
  }
  return input;
}

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  return (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
}

/** A query parameter as the type its field declares: digits for a number, `true`/`false` for a flag. */
function fromQuery(value: string, schema: z.ZodType | undefined): unknown {
  let type = (schema as { def?: { type?: string; innerType?: z.ZodType } } | undefined)?.def;
  while (type && (type.type === 'optional' || type.type === 'default'))
    type = (type.innerType as { def?: typeof type } | undefined)?.def;
  if (type?.type === 'number' && /^-?\d{1,16}$/.test(value)) return Number(value);
  if (type?.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
