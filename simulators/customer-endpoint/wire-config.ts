import { ControlInputError } from '../shared/http/control-input-error.ts';
import { controlSchema, describeSchemaError } from './control-schema.ts';
import type { EndpointBehaviour, EndpointConfig } from './endpoint-behaviour.ts';
import type { RecordedRequest } from './recorded-request.ts';

/** A behaviour as JSON carries it: body bytes that are not text travel as `bodyBase64`. */
export type WireBehaviour = Omit<EndpointBehaviour, 'body'> & { body?: string; bodyBase64?: string };

export interface WireConfig {
  routes?: Record<string, WireBehaviour>;
  fallback?: WireBehaviour;
}

/** A recording as JSON carries it (schemas/customer-endpoint-control.openapi.yaml, `RecordedRequest`). */
export type WireRecordedRequest = Omit<RecordedRequest, 'body'> & { body: string | null; bodyBase64: string };

function behaviourFromWire(wire: WireBehaviour): EndpointBehaviour {
  const { bodyBase64, ...rest } = structuredClone(wire);
  return bodyBase64 === undefined
    ? rest
    : { ...rest, body: new Uint8Array(Buffer.from(bodyBase64, 'base64')) };
}

function behaviourToWire(behaviour: EndpointBehaviour): WireBehaviour {
  const { body, ...rest } = behaviour;
  const copy = structuredClone(rest) as WireBehaviour;
  if (body instanceof Uint8Array) copy.bodyBase64 = Buffer.from(body).toString('base64');
  else if (body !== undefined) copy.body = body;
  return copy;
}

/** Checks a behaviour from the control plane; throws `ControlInputError` (400) when it does not fit. */
export function parseWireBehaviour(value: unknown, field = 'behaviour'): EndpointBehaviour {
  const validate = controlSchema('Behaviour');
  if (!validate(value)) throw new ControlInputError(describeSchemaError(validate.errors, field));
  return behaviourFromWire(value as WireBehaviour);
}

/** Checks a whole configuration from the control plane; throws `ControlInputError` (400) when it does not fit. */
export function parseWireConfig(value: unknown): EndpointConfig {
  const validate = controlSchema('Config');
  if (!validate(value)) throw new ControlInputError(describeSchemaError(validate.errors, 'config'));
  const wire = value as WireConfig;
  const config: EndpointConfig = {};
  if (wire.routes) {
    config.routes = {};
    for (const [path, behaviour] of Object.entries(wire.routes))
      config.routes[path] = behaviourFromWire(behaviour);
  }
  if (wire.fallback) config.fallback = behaviourFromWire(wire.fallback);
  return config;
}

export function configToWire(config: EndpointConfig): WireConfig {
  const wire: WireConfig = {};
  if (config.routes) {
    wire.routes = {};
    for (const [path, behaviour] of Object.entries(config.routes))
      wire.routes[path] = behaviourToWire(behaviour);
  }
  if (config.fallback) wire.fallback = behaviourToWire(config.fallback);
  return wire;
}

/** The body as UTF-8 text when it is valid UTF-8, else `null`; always also as base64. */
export function recordToWire(record: RecordedRequest): WireRecordedRequest {
  let text: string | null;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(record.body);
  } catch {
    text = null;
  }
  return {
    ...record,
    headers: record.headers.map(([name, value]) => [name, value] as [string, string]),
    body: text,
    bodyBase64: record.body.toString('base64'),
  };
}

/** A recording read back from JSON, with the body as bytes again. */
export function recordFromWire(wire: WireRecordedRequest): RecordedRequest {
  const { bodyBase64, body: _text, ...rest } = wire;
  return { ...rest, body: Buffer.from(bodyBase64, 'base64') };
}
