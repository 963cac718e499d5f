/**
 * The token of an `Authorization: Bearer <token>` header, or `null` (MAINT-AUTH-BEARER,
 * MAINT-UNSPEC-BEARER-SYNTAX): the scheme is matched case-insensitively (RFC 9110 §11.1), one or
 * more spaces or tabs separate it from the token, surrounding whitespace is ignored, and the token
 * itself contains no whitespace. Another scheme (`Basic`, …), a scheme without a token, repeated
 * `Authorization` headers and tokens in the query, a cookie or another header all count as a
 * missing token (MAINT-AUTH-401-OTHER-SCHEME).
 */
export function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const match = /^[ \t]*bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  return match?.[1] ?? null;
}
