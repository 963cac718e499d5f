/**
 * What "an XML-RPC fault meaning unknown method" is on a target whose fault codes and strings the
 * spec does not show (XMLRPC-ERR-UNKNOWN-METHOD, XMLRPC-UNSPEC-FAULTS): the fault the target
 * returns for a method that surely does not exist, `<instance>.NoSuchMethod`. Another name is
 * an unknown method when it gets the same fault code and the same fault string, the called name put
 * where the reference string names its own method.
 */

import type { XmlRpcOutcome } from '../../../src/clients/xmlrpc-call.ts';
import { memoryKey } from '../../support/scenario-memory.ts';
import type { PbxWorld } from '../../support/world.ts';

/** The surely unknown command under the target's instance name. */
export const NO_SUCH_COMMAND = 'NoSuchMethod';

export interface ReferenceFault {
  method: string;
  faultCode: unknown;
  faultString: unknown;
}

const MEMORY_KEY = memoryKey<ReferenceFault>('unknownMethodFault');

/**
 * The fault of `<instance>.NoSuchMethod` (the target's configured instance name), called once per
 * scenario with valid credentials like the calls it is compared with.
 */
export async function unknownMethodFault(world: PbxWorld): Promise<ReferenceFault> {
  const kept = world.memory.get(MEMORY_KEY);
  if (kept) return kept;
  const method = world.methodName(NO_SUCH_COMMAND);
  // The reference call is evidence but not the scenario's "last exchange".
  const previous = world.xmlrpc;
  const { outcome } = await world.callXmlRpc(method, [{}], { kind: 'valid' });
  world.xmlrpcExchanges.pop();
  world.xmlrpc = previous;
  if (outcome.kind !== 'fault') {
    throw new Error(
      `the reference call of ${method} did not fault: ${JSON.stringify(outcome).slice(0, 200)}`,
    );
  }
  const reference = { method, faultCode: outcome.faultCode, faultString: outcome.faultString };
  world.memory.set(MEMORY_KEY, reference);
  return reference;
}

/**
 * How the outcome of calling `method` differs from the unknown-method fault `reference`; empty
 * when it is that fault. The reference string is split at its own method name and joined with
 * `method`, so a target that echoes the name compares equal and one that does not must answer the
 * same text.
 */
export function unknownMethodDeviation(
  outcome: XmlRpcOutcome,
  method: string,
  reference: ReferenceFault,
): string[] {
  if (outcome.kind !== 'fault') return [`not a fault but ${outcome.kind}`];
  const problems: string[] = [];
  if (outcome.faultCode !== reference.faultCode)
    problems.push(
      `faultCode ${JSON.stringify(outcome.faultCode)}, not ${JSON.stringify(reference.faultCode)}`,
    );
  const expected =
    typeof reference.faultString === 'string'
      ? reference.faultString.split(reference.method).join(method)
      : reference.faultString;
  if (outcome.faultString !== expected)
    problems.push(`faultString ${JSON.stringify(outcome.faultString)}, not ${JSON.stringify(expected)}`);
  return problems;
}
