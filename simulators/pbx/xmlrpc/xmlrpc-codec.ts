import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { XMLValidator } from 'fast-xml-parser';
import { FAULT_CODES, type XmlRpcFault, xmlRpcFault } from './xmlrpc-faults.ts';

/** A decoded XML-RPC value as the `xmlrpc` package's deserializer yields it. */
export type XmlRpcValue =
  | string
  | number
  | boolean
  | null
  | Date
  | Buffer
  | XmlRpcValue[]
  | { [member: string]: XmlRpcValue };

export type XmlRpcStruct = { [member: string]: XmlRpcValue };

export type ParsedMethodCall =
  | { ok: true; methodName: string; params: XmlRpcValue[] }
  | { ok: false; fault: XmlRpcFault };

interface Deserializer {
  parser: EventEmitter;
  deserializeMethodCall(
    stream: NodeJS.ReadableStream,
    callback: (error: Error | null | undefined, methodName?: string, params?: XmlRpcValue[]) => void,
  ): void;
}

interface Serializer {
  serializeMethodResponse(value: XmlRpcValue): string;
  serializeFault(fault: XmlRpcFault): string;
}

// The package's server would hide the query string (which carries the credentials) and answer
// unknown methods with HTTP 404, so only its (untyped, CommonJS) codec is used.
const require = createRequire(import.meta.url);
const DeserializerClass = require('xmlrpc/lib/deserializer.js') as new (encoding?: string) => Deserializer;
const serializer = require('xmlrpc/lib/serializer.js') as Serializer;

/** A DTD is never needed for XML-RPC and is the vehicle of entity-expansion attacks. */
const DTD_DECLARATION = /<!(DOCTYPE|ENTITY)/i;
/**
 * Characters XML 1.0 does not allow anywhere in a document (C0 controls other than tab, line
 * feed and carriage return; U+FFFE, U+FFFF; unpaired surrogates). A body holding one is not
 * well-formed XML, so it is the parse fault -32700 (issue 12, defect 1), and such characters can
 * never reach a fault string, which the serialiser could not write.
 */
const NOT_XML_CHAR =
  /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NOT_XML_CHARS = new RegExp(NOT_XML_CHAR.source, 'g');

/**
 * Decodes a request body (UTF-8, whatever the XML declaration says) into a method call.
 *
 * Checks run before the `xmlrpc` deserializer sees the text:
 * - a character XML 1.0 does not allow (NUL and other C0 controls, U+FFFE/U+FFFF, an unpaired
 *   surrogate) is the parse fault `-32700`;
 * - any `<!DOCTYPE` or `<!ENTITY` is refused with a parse-error fault, without expanding anything
 *   (the sax parser underneath does not expand DTD entities either, but the refusal is explicit);
 * - the text must be well-formed XML (fast-xml-parser's validator; the deserializer's sax parser
 *   runs in its lenient mode and would accept broken markup): parse-error fault `-32700`.
 * Well-formed XML that is not a `methodCall` gets the invalid-request fault `-32600`.
 */
export function parseMethodCall(body: Buffer): Promise<ParsedMethodCall> {
  const text = body.toString('utf8');
  const bad = NOT_XML_CHAR.exec(text);
  if (bad) {
    const code = bad[0].codePointAt(0) ?? 0;
    return Promise.resolve(
      failure(
        FAULT_CODES.parseError,
        `parse error: character U+${code.toString(16).toUpperCase().padStart(4, '0')} at offset ${bad.index} is not allowed in XML`,
      ),
    );
  }
  if (DTD_DECLARATION.test(text)) {
    return Promise.resolve(
      failure(FAULT_CODES.parseError, 'parse error: DTD declarations (DOCTYPE, ENTITY) are not accepted'),
    );
  }
  const validation = XMLValidator.validate(text);
  if (validation !== true) {
    const { msg, line } = validation.err;
    return Promise.resolve(
      failure(FAULT_CODES.parseError, `parse error: not well formed (line ${line}): ${msg}`),
    );
  }
  return new Promise((resolve) => {
    let settled = false;
    const deserializer = new DeserializerClass('utf8');
    deserializer.deserializeMethodCall(toStream(text), (error, methodName, params) => {
      if (settled) return;
      settled = true;
      if (error || methodName === undefined) {
        const message = firstLine(error?.message ?? 'no method name');
        resolve(failure(FAULT_CODES.invalidRequest, `invalid xml-rpc: ${message}`));
        return;
      }
      resolve({ ok: true, methodName, params: params ?? [] });
    });
  });
}

/** A `methodResponse` with one parameter, including the XML declaration. */
export function serializeResult(value: XmlRpcValue): string {
  return serializer.serializeMethodResponse(value);
}

/**
 * A `methodResponse` carrying a `fault`. Characters XML cannot carry are replaced by U+FFFD in the
 * fault string (an echoed name must never make the answer unwritable: that was an HTTP 500).
 */
export function serializeFault(fault: XmlRpcFault): string {
  return serializer.serializeFault({
    faultCode: fault.faultCode,
    faultString: fault.faultString.replace(NOT_XML_CHARS, '\uFFFD'),
  });
}

/** The method name `<methodName>` holds, read cheaply without parsing when the body starts in the
 * plain form `[<?xml …?>] <methodCall> <methodName>NAME</methodName>`; `undefined` otherwise (then
 * only the full parse can tell). Reads at most the first 1 KiB. */
export function prescanMethodName(body: Buffer): string | undefined {
  const head = body.subarray(0, 1024).toString('latin1');
  const match =
    /^\s*(?:<\?xml[^>]{0,200}\?>)?\s*<methodCall>\s*<methodName>([A-Za-z0-9_.:/-]{1,200})<\/methodName>/.exec(
      head,
    );
  return match?.[1];
}

/** True for a decoded struct (not an array, date, base64 buffer or nil). */
export function isXmlRpcStruct(value: XmlRpcValue | undefined): value is XmlRpcStruct {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !Buffer.isBuffer(value)
  );
}

function toStream(text: string): PassThrough {
  const stream = new PassThrough();
  stream.end(text, 'utf8');
  return stream;
}

function failure(code: number, message: string): ParsedMethodCall {
  return { ok: false, fault: xmlRpcFault(code, message) };
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? '').slice(0, 200);
}
