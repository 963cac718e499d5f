/** An XML-RPC fault as it goes on the wire: `<fault>` with the struct `{ faultCode, faultString }`. */
export interface XmlRpcFault {
  faultCode: number;
  faultString: string;
}

/**
 * The fault codes of the simulated PBX (XMLRPC-UNSPEC-FAULTS: the spec shows no codes or strings).
 * The -327xx/-326xx codes follow the "specification for fault code interoperability" that most
 * XML-RPC servers use; the -32001/-32002 pair sits in its server-defined range (-32000 … -32099)
 * for the login errors (XMLRPC-UNSPEC-AUTH-ERROR).
 */
export const FAULT_CODES = {
  /** The body is not well-formed XML, or declares a DTD (DOCTYPE/ENTITY). */
  parseError: -32700,
  /** Well-formed XML that is not an XML-RPC `methodCall`. */
  invalidRequest: -32600,
  /** XMLRPC-ERR-UNKNOWN-METHOD. */
  methodNotFound: -32601,
  /** The first parameter is not a struct (XMLRPC-UNSPEC-PARAMS). */
  invalidParams: -32602,
  /** The answer could not be serialised; details in the module log. */
  internalError: -32603,
  /** XMLRPC-ERR-NO-LOGIN: the credentials parameter is absent or empty. */
  authenticationRequired: -32001,
  /** XMLRPC-ERR-BAD-LOGIN: unknown login or wrong secret (deliberately one fault for both). */
  authenticationFailed: -32002,
} as const;

export function xmlRpcFault(faultCode: number, faultString: string): XmlRpcFault {
  return { faultCode, faultString };
}
