import type { z } from 'zod';
import type { ControlMethod } from '../http/control-route.ts';
import type { EventStream } from './event-stream.ts';

/**
 * One control operation, declared once as data (STYLE.md, "Declare an operation once, derive the
 * rest"). The server's dispatch (`serveOperations`), the typed client in-process and over HTTP
 * (`controlClient`) and the plane's OpenAPI document (`controlDocument`, written to `schemas/` by
 * `npm run generate:openapi`) are all derived from it; the only other thing an operation needs is
 * its effect.
 *
 * The input is one value. When `input` is an object schema, its fields named in the path template
 * (`/faults/{name}`) travel in the path, those in `query` in the query string, one `bodyField` (if
 * given) is the whole body, and the remaining fields make the JSON body. Any other input schema
 * (an array, a state overlay) is the body itself.
 */
export interface ControlOperation {
  method: ControlMethod;
  /** An OpenAPI path template: the same string as the key under `paths` in the document. */
  path: string;
  /** One line for people: what the operation does (the OpenAPI `summary`). */
  summary: string;
  /** The state it reads or changes, e.g. `monitoring.tileOn`, `faults`, `nothing (reads)`. */
  actsOn: string;
  /** The group of the OpenAPI document it is listed under (a tag of the plane's document). */
  tag?: string;
  /** More for people than the summary: rules, defaults, what the answer means (the OpenAPI `description`). */
  description?: string;
  /** What a successful answer means (the description of the success response). */
  answers?: string;
  /**
   * The refusals its effect adds to the plane's own (400 for a bad input and so on), by status,
   * each with what it means: `{ 404: 'No such site.' }`; with a `body` when the refusal answers
   * something else than the plane's error body.
   */
  refusals?: Readonly<Record<number, string | { description: string; body: z.ZodType }>>;
  /** The input as a caller gives it; absent: the operation takes none. */
  input?: z.ZodType;
  /** Fields of an object `input` sent as query parameters. */
  query?: readonly string[];
  /** The field of an object `input` that is the whole request body (e.g. an inventory or `null`). */
  bodyField?: string;
  /** The answer's body; absent: no body (204). */
  output?: z.ZodType;
  /**
   * The media type of the answer: JSON unless told; `text/event-stream` for an answer that is a
   * stream of server-sent events, each event's data an `output`: the effect returns an
   * `EventStream` (event-stream.ts) and the stream stays open until the client goes away. The
   * typed client cannot read it; an SSE reader (a browser, `curl -N`) can.
   */
  produces?: 'application/json' | 'text/event-stream';
  /** Status of a successful answer; default 200 with an `output`, 204 without. */
  status?: number;
  /** Real time the operation may legitimately wait before it answers (a client allows it on top). */
  waitMs?: number | ((input: never) => number);
}

/** A group of operations by name; each name is the OpenAPI `operationId` and the client's method. */
export type ControlOperations = Readonly<Record<string, ControlOperation>>;

/** What a caller passes to an operation (`undefined` when it takes nothing). */
export type InputOf<O> = O extends { input: infer S extends z.ZodType } ? z.input<S> : undefined;
/** What an effect receives: the input after the declaration's schema has checked it. */
export type CheckedInputOf<O> = O extends { input: infer S extends z.ZodType } ? z.output<S> : undefined;
/** What the operation answers (`undefined` without an `output`). */
export type OutputOf<O> = O extends { output: infer S extends z.ZodType } ? z.output<S> : undefined;

/** A method of the typed client: no argument when the operation takes none or all of its input is optional. */
export type ClientMethod<O> = O extends { input: z.ZodType }
  ? undefined extends InputOf<O>
    ? (input?: InputOf<O>) => Promise<OutputOf<O>>
    : Record<never, never> extends InputOf<O>
      ? (input?: InputOf<O>) => Promise<OutputOf<O>>
      : (input: InputOf<O>) => Promise<OutputOf<O>>
  : () => Promise<OutputOf<O>>;

/** The typed client of a group: one async method per operation, named by the declaration. */
export type ControlClient<T extends ControlOperations> = { readonly [K in keyof T]: ClientMethod<T[K]> };

/** The effect of one operation: what it does to the state it acts on, given its checked input. */
export type Effect<O> = (input: CheckedInputOf<O>) => Promise<EffectResult<O>> | EffectResult<O>;

/** What an effect returns: the declared answer, the stream of a streaming operation, or nothing. */
type EffectResult<O> = O extends { produces: 'text/event-stream'; output: infer S extends z.ZodType }
  ? EventStream<z.output<S>>
  : AnswerOf<O>;

// biome-ignore lint/suspicious/noConfusingVoidType: an effect without an answer may simply not return
type AnswerOf<O> = O extends { output: infer S extends z.ZodType } ? z.output<S> : void;

/** The effects of a group: one per declared operation, no more, no fewer. */
export type Effects<T extends ControlOperations> = { readonly [K in keyof T]: Effect<T[K]> };

/** The names in a path template, in order: `/rights/{partnerId}/{siteId}` → partnerId, siteId. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

/**
 * Declares a group of operations. Returns them as given (so their types stay exact) after checking
 * that each is consistent: path parameters, query fields and the body field are fields of an
 * object input, and no two operations share a method and path.
 */
export function defineOperations<const T extends ControlOperations>(operations: T): T {
  const seen = new Set<string>();
  for (const [name, operation] of Object.entries(operations)) {
    const key = `${operation.method} ${operation.path}`;
    if (seen.has(key)) throw new Error(`control operation ${name}: ${key} is declared twice`);
    seen.add(key);
    const fields = objectFields(operation.input);
    const named = [...pathParameters(operation.path), ...(operation.query ?? [])];
    if (operation.bodyField !== undefined) named.push(operation.bodyField);
    for (const field of named) {
      if (!fields?.includes(field))
        throw new Error(`control operation ${name}: ${field} is not a field of its object input`);
    }
  }
  return operations;
}

/** The field names of an object schema; `undefined` for any other schema. */
export function objectFields(schema: z.ZodType | undefined): string[] | undefined {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : undefined;
}

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void
  ? I
  : never;

/**
 * One plane from several groups (the PBX's state, maintenance, attention-event and resolver
 * operations): refuses a name or a method and path that two groups both declare.
 */
export function combineOperations<const T extends readonly ControlOperations[]>(
  ...groups: T
): UnionToIntersection<T[number]> {
  const combined: Record<string, ControlOperation> = {};
  for (const group of groups) {
    for (const [name, operation] of Object.entries(group)) {
      if (name in combined) throw new Error(`control operation ${name} is declared in two groups`);
      combined[name] = operation;
    }
  }
  defineOperations(combined);
  return combined as UnionToIntersection<T[number]>;
}
