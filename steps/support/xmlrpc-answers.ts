import assert from 'node:assert/strict';
import { isStruct, type XmlRpcOutcome } from '../../src/clients/xmlrpc-call.ts';
import type { PbxWorld, XmlRpcExchange } from './world.ts';

/** The last XML-RPC exchange of the scenario. */
export function lastExchange(world: PbxWorld): XmlRpcExchange {
  assert.ok(world.xmlrpc, 'no XML-RPC call was made');
  return world.xmlrpc;
}

/** The struct the last call returned; fails with the outcome when it was no struct. */
export function answerStruct(world: PbxWorld): Record<string, unknown> {
  const { method, outcome } = lastExchange(world);
  assert.ok(outcome.kind === 'value', `${method} answered ${describeOutcome(outcome)}`);
  assert.ok(isStruct(outcome.value), `${method} answered ${JSON.stringify(outcome.value)}, not a struct`);
  return outcome.value;
}

/** A member of the returned struct that must be a string. */
export function stringMember(world: PbxWorld, member: string): string {
  const struct = answerStruct(world);
  assert.ok(member in struct, `the struct has no member "${member}": ${JSON.stringify(Object.keys(struct))}`);
  const value = struct[member];
  assert.equal(typeof value, 'string', `"${member}" is ${JSON.stringify(value)}, not a string`);
  return value as string;
}

export function describeOutcome(outcome: XmlRpcOutcome): string {
  switch (outcome.kind) {
    case 'value':
      return `a value ${JSON.stringify(outcome.value).slice(0, 200)}`;
    case 'fault':
      return `a fault ${JSON.stringify({ faultCode: outcome.faultCode, faultString: outcome.faultString })}`;
    case 'http-error':
      return `HTTP ${outcome.status ?? '?'} (${outcome.message})`;
    case 'transport-error':
      return `a transport error (${outcome.message})`;
  }
}

/** An error reply of the telephone system: an XML-RPC fault or an HTTP error status (XMLRPC-UNSPEC-AUTH-ERROR). */
export function isErrorReply(outcome: XmlRpcOutcome): boolean {
  return outcome.kind === 'fault' || (outcome.kind === 'http-error' && (outcome.status ?? 0) >= 400);
}
