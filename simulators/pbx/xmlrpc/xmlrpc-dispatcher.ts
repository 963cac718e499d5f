import type { PbxStore } from '../state/store.ts';
import { verifyXmlRpcAuth, type XmlRpcAuthResult } from './auth.ts';
import { MONITORING_METHODS, type MonitoringData, type MonitoringMethod } from './monitoring-methods.ts';
import { isXmlRpcStruct, type XmlRpcStruct, type XmlRpcValue } from './xmlrpc-codec.ts';
import { FAULT_CODES, type XmlRpcFault, xmlRpcFault } from './xmlrpc-faults.ts';

export interface DispatchContext {
  store: PbxStore;
  data: MonitoringData;
  /** The module's commands; tests pass spies. Default: the three monitoring methods. */
  methods?: readonly MonitoringMethod[];
}

export interface XmlRpcCall {
  methodName: string;
  params: XmlRpcValue[];
}

export type XmlRpcOutcome = { kind: 'result'; value: XmlRpcStruct } | { kind: 'fault'; fault: XmlRpcFault };

/** Long attacker-chosen strings are cut before they go into fault strings or the log. */
const ECHO_LIMIT = 100;

/**
 * The socket-free core of the XML-RPC face: method call + URL query → result or fault.
 *
 * 1. The method name must be `<instance>.<command>` with the instance name as it is in the state
 *    right now, so a rename takes effect with the next call (XMLRPC-METHOD-NAMES,
 *    XMLRPC-INSTANCE-RENAME) and old names are unknown (XMLRPC-INSTANCE-RENAME-OLD). Anything else
 *    is the fault `-32601` (XMLRPC-ERR-UNKNOWN-METHOD), with or without credentials.
 * 2. For the data queries the credentials in the URL parameter `state.monitoring.authParam` are
 *    checked here, by "the telephone system", before the module handler is called
 *    (XMLRPC-AUTH-PARAM, XMLRPC-AUTH-BEFORE-HANDLER). A failure is a fault (`-32001` without
 *    credentials, `-32002` for an unknown login or a wrong secret; XMLRPC-UNSPEC-AUTH-ERROR) plus a
 *    warning in the module log with the reason, naming the login only when it is a login of this
 *    PBX, and never any part of the secret (issue 12, defect 2).
 * 3. Each method takes one struct and answers a struct keyed by its output variable names
 *    (XMLRPC-STRUCT-IO). XMLRPC-UNSPEC-PARAMS: no parameters at all count as an empty struct; a
 *    first parameter that is not a struct is the fault `-32602`; further parameters are ignored.
 * 4. The caller's address is never looked at: XML-RPC does not depend on the monitoring-hosts list
 *    (XMLRPC-NOT-HOSTS-LIST), which guards only the data endpoint.
 */
export function dispatchXmlRpcCall(
  context: DispatchContext,
  call: XmlRpcCall,
  query: URLSearchParams,
): XmlRpcOutcome {
  const { store } = context;
  const state = store.read();
  const method = resolveMethod(
    call.methodName,
    state.monitoring.instanceName,
    context.methods ?? MONITORING_METHODS,
  );
  if (!method) {
    return fault(FAULT_CODES.methodNotFound, `method not found: ${echo(call.methodName)}`);
  }
  let login: string | null = null;
  if (method.requiresAuth) {
    const auth = checkAuth(store, call.methodName, query);
    if (!auth.ok) return auth.outcome;
    login = auth.login;
  }
  const first = call.params[0];
  const input = first === undefined ? {} : first;
  if (!isXmlRpcStruct(input)) {
    return fault(
      FAULT_CODES.invalidParams,
      'invalid method parameters: the first parameter must be a struct',
    );
  }
  return {
    kind: 'result',
    value: method.run(input, { store, data: context.data, methodName: call.methodName, login }),
  };
}

/**
 * The credential check alone, for a call whose body has not been parsed yet (issue 12, defect 5:
 * an unauthenticated data query is refused before its body costs a parse). Returns the login
 * fault (and logs it) when `methodName` is a data query of this instance and the credentials in
 * the URL fail; `null` when the full parse and `dispatchXmlRpcCall` must decide (credentials good,
 * a method without credentials, or an unknown method).
 */
export function preParseAuthFault(
  context: DispatchContext,
  methodName: string,
  query: URLSearchParams,
): XmlRpcOutcome | null {
  const { store } = context;
  const method = resolveMethod(
    methodName,
    store.read().monitoring.instanceName,
    context.methods ?? MONITORING_METHODS,
  );
  if (!method?.requiresAuth) return null;
  const auth = checkAuth(store, methodName, query);
  return auth.ok ? null : auth.outcome;
}

function checkAuth(
  store: PbxStore,
  methodName: string,
  query: URLSearchParams,
): { ok: true; login: string } | { ok: false; outcome: XmlRpcOutcome } {
  const state = store.read();
  const authParam = state.monitoring.authParam;
  const auth = verifyXmlRpcAuth(query.get(authParam), state.users);
  if (auth.ok) return { ok: true, login: auth.login };
  logAuthFailure(store, methodName, authParam, auth);
  return {
    ok: false,
    outcome:
      auth.reason === 'missing'
        ? fault(FAULT_CODES.authenticationRequired, `authentication required: URL parameter ${authParam}`)
        : fault(FAULT_CODES.authenticationFailed, 'authentication failed'),
  };
}

function resolveMethod(
  methodName: string,
  instanceName: string,
  methods: readonly MonitoringMethod[],
): MonitoringMethod | undefined {
  const prefix = `${instanceName}.`;
  if (!methodName.startsWith(prefix)) return undefined;
  const command = methodName.slice(prefix.length);
  return methods.find((m) => m.command === command);
}

/**
 * What the module log says of a refused credential that names no login of this PBX. For
 * `unknown-login`, what stands before the last `:` is not a login of this PBX: it may be a password
 * typed into the wrong field or a cut-off secret, so it is not written (issue 12, defect 2).
 */
const UNNAMED_FAILURE = {
  missing: 'no credentials',
  malformed: 'malformed credentials',
  'unknown-login': 'unknown login',
} as const;

function logAuthFailure(
  store: PbxStore,
  methodName: string,
  authParam: string,
  auth: Exclude<XmlRpcAuthResult, { ok: true }>,
): void {
  const data = { method: echo(methodName), reason: auth.reason };
  if (auth.reason !== 'bad-secret') {
    const what = UNNAMED_FAILURE[auth.reason];
    store.log('warning', 'xmlrpc', `authentication failed: ${what} in URL parameter ${authParam}`, data);
    return;
  }
  // A login id of this PBX (a user's name, not a secret) and the reason; never the value.
  store.log('warning', 'xmlrpc', `authentication failed for login ${JSON.stringify(echo(auth.login))}`, {
    ...data,
    login: echo(auth.login),
  });
}

function fault(faultCode: number, faultString: string): XmlRpcOutcome {
  return { kind: 'fault', fault: xmlRpcFault(faultCode, faultString) };
}

function echo(text: string): string {
  return text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}…` : text;
}
