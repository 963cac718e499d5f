/**
 * DSSE's Pre-Authentication Encoding (DSSE protocol v1.0.2, "Signature Definition"): the bytes a
 * DSSE signature is made over.
 *
 * ```none
 * PAE(type, body) = "DSSEv1" + SP + LEN(type) + SP + type + SP + LEN(body) + SP + body
 * LEN(s)          = ASCII decimal encoding of the byte length of s, with no leading zeros
 * ```
 *
 * `type` is `UTF8(PAYLOAD_TYPE)`, `body` the serialized payload. The lengths are byte counts, not
 * character counts, so a payload type or body with non-ASCII characters still frames exactly.
 * (An early draft of DSSE framed with little-endian 64-bit integers; v1 uses decimal text.)
 */
export function preAuthEncoding(payloadType: string, body: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'ascii'),
    type,
    Buffer.from(` ${body.length} `, 'ascii'),
    body,
  ]);
}
