import scenarioSchema from '../../schemas/pbx-scenario.schema.json';

/** A JSON Schema node as schemas/pbx-scenario.schema.json writes them. */
export interface SchemaNode {
  type?: string | string[];
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  enum?: unknown[];
  oneOf?: SchemaNode[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  description?: string;
}

const definitions = (scenarioSchema as unknown as { definitions: Record<string, SchemaNode> }).definitions;

/** Follows `$ref`s to the node they name. */
export function resolve(node: SchemaNode): SchemaNode {
  let current = node;
  for (let depth = 0; current.$ref && depth < 10; depth++) {
    const name = current.$ref.replace('#/definitions/', '');
    current = { ...definitions[name], ...(current.description ? { description: current.description } : {}) };
  }
  return current;
}

/** The state overlay's schema: the fields `PATCH /state` takes, straight from the scenario schema. */
export const STATE_SCHEMA: SchemaNode = resolve({ $ref: '#/definitions/stateOverlay' });

/** What kind of input a leaf needs. */
export type LeafKind = 'boolean' | 'integer' | 'number' | 'string' | 'enum' | 'json';

export function leafKind(node: SchemaNode): LeafKind {
  const resolved = resolve(node);
  if (resolved.enum) return 'enum';
  const type = Array.isArray(resolved.type) ? resolved.type.find((t) => t !== 'null') : resolved.type;
  if (type === 'boolean' || type === 'integer' || type === 'number' || type === 'string') return type;
  return 'json';
}

export function isObjectNode(node: SchemaNode): boolean {
  const resolved = resolve(node);
  return resolved.type === 'object' && resolved.properties !== undefined;
}

/**
 * Checks what the user typed against the field's schema before anything is sent; returns the
 * value to send, or the reason it cannot be sent (one line, shown beside the field).
 */
export function checkLeaf(node: SchemaNode, raw: string | boolean): { value: unknown } | { error: string } {
  const resolved = resolve(node);
  const kind = leafKind(node);
  if (kind === 'boolean') return { value: raw === true };
  const text = String(raw);
  if (kind === 'enum') {
    const match = resolved.enum?.find((option) => String(option) === text);
    return match === undefined ? { error: `must be one of ${resolved.enum?.join(', ')}` } : { value: match };
  }
  if (kind === 'integer' || kind === 'number') {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value)) return { error: 'must be a number' };
    if (kind === 'integer' && !Number.isInteger(value)) return { error: 'must be a whole number' };
    if (resolved.minimum !== undefined && value < resolved.minimum)
      return { error: `must be at least ${resolved.minimum}` };
    if (resolved.maximum !== undefined && value > resolved.maximum)
      return { error: `must be at most ${resolved.maximum}` };
    return { value };
  }
  if (kind === 'string') {
    if (resolved.minLength !== undefined && text.length < resolved.minLength)
      return { error: `must have at least ${resolved.minLength} characters` };
    if (resolved.maxLength !== undefined && text.length > resolved.maxLength)
      return { error: `must have at most ${resolved.maxLength} characters` };
    if (resolved.pattern !== undefined && !new RegExp(resolved.pattern, 'u').test(text))
      return { error: `must match ${resolved.pattern}` };
    return { value: text };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: 'must be valid JSON' };
  }
  const type = resolved.type;
  if (type === 'array' && !Array.isArray(value)) return { error: 'must be a JSON array' };
  if (type === 'object' && (typeof value !== 'object' || value === null || Array.isArray(value)))
    return { error: 'must be a JSON object' };
  return { value };
}

/** Puts `value` at `path` into a deep-partial overlay. */
export function setAt(overlay: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = overlay;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
}

export function valueAt(state: unknown, path: readonly string[]): unknown {
  let node = state;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
