import { z } from 'zod';
import { named } from '../shared/control/control-fields.ts';

// The inputs and answers of the customer endpoint's control plane (endpoint-operations.ts), named as
// the generated schemas/customer-endpoint-control.openapi.yaml names them. A default that the
// endpoint applies itself is documented (`meta`), not filled in, so a configuration reads back as
// it was given.

const byDefault = <S extends z.ZodType>(schema: S, value: unknown) =>
  schema.optional().meta({ default: value });

export const Info = named(
  'Info',
  z.strictObject({
    base: z.string().describe('Base URL a provider is pointed at, e.g. `http://127.0.0.1:40123`.'),
    control: z.string().describe('Base URL of this control plane.'),
    certificate: z.string().nullable().describe('The server certificate (PEM) when serving HTTPS.'),
  }),
);

export const HeaderValue = named(
  'HeaderValue',
  z
    .string()
    .max(8192)
    .regex(/^[\t\x20-\x7E\x80-\xFF]*$/)
    .describe('A header field value (no line breaks; sent as Latin-1).'),
);

export const QuotedText = named(
  'QuotedText',
  z
    .string()
    .max(256)
    .regex(/^[^"\\\x00-\x1F\x7F]*$/)
    .describe('Text that goes into a quoted challenge parameter.'),
);

export const Auth = named(
  'Auth',
  z.discriminatedUnion('scheme', [
    z.strictObject({
      scheme: z.literal('Basic'),
      username: z.string().max(256),
      password: z.string().max(256),
      realm: QuotedText.optional(),
    }),
    z.strictObject({
      scheme: z.literal('Digest'),
      username: z.string().max(256),
      password: z.string().max(256),
      realm: QuotedText.optional(),
      algorithms: z
        .array(z.enum(['MD5', 'MD5-sess', 'SHA-256', 'SHA-256-sess']))
        .min(1)
        .max(4)
        .describe('One challenge per algorithm, in this order (default [MD5]).')
        .optional(),
      qop: byDefault(z.enum(['auth', 'none']), 'auth').describe('`none` sends an RFC 2069 challenge.'),
      userhash: byDefault(z.boolean(), false),
    }),
    z.strictObject({
      scheme: z.literal('Bearer'),
      token: z
        .string()
        .max(4096)
        .regex(/^[\x21-\x7E]*$/),
    }),
  ]),
);

export const LookupTable = named(
  'LookupTable',
  z.strictObject({
    param: byDefault(z.string().max(128), 'tel').describe(
      'Query parameter of a GET; a POST is read from the JSON member `query`.',
    ),
    records: z.record(z.string(), z.string().max(65536)),
    plusAsSpace: byDefault(z.boolean(), true).describe(
      'Read `+` in the query as a space, as most web frameworks do.',
    ),
    missing: z
      .strictObject({ status: z.int().min(200).max(599).optional(), body: z.string().max(65536).optional() })
      .optional(),
  }),
);

export const Behaviour = named(
  'Behaviour',
  z
    .strictObject({
      status: byDefault(z.int().min(200).max(599), 200),
      body: z.string().max(1048576).describe('Sent as UTF-8.').optional(),
      bodyBase64: z
        .string()
        .max(1398104)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/)
        .describe('Exact body bytes (e.g. Latin-1 text or invalid UTF-8).')
        .optional(),
      lookup: LookupTable.optional(),
      contentType: HeaderValue.nullable()
        .describe('Default `application/json; charset=utf-8`; null sends no Content-Type.')
        .optional(),
      headers: z
        .array(z.tuple([z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/), HeaderValue]))
        .max(64)
        .describe('More header lines, sent as given (name casing kept).')
        .optional(),
      compression: byDefault(z.enum(['none', 'gzip', 'deflate', 'deflate-raw', 'br']), 'none'),
      delayMs: z.int().min(0).max(60000).describe('Wait before the status line.').optional(),
      redirect: z
        .strictObject({
          location: HeaderValue,
          status: byDefault(z.int().min(300).max(399), 302).describe('Any 3xx.'),
        })
        .optional(),
      auth: Auth.optional(),
      hostile: z
        .enum([
          'endless-body',
          'slow-drip',
          'compression-bomb',
          'huge-header',
          'close-mid-body',
          'redirect-loop',
          'redirect-chain',
          'never-answer',
        ])
        .optional(),
      dripIntervalMs: byDefault(z.int().min(1).max(10000), 20),
    })
    .refine((b) => b.body === undefined || b.bodyBase64 === undefined, {
      error: 'must not have both body and bodyBase64',
    })
    .describe('How the endpoint answers a request: `body` and `bodyBase64` exclude each other.'),
);

export const Config = named(
  'Config',
  z.strictObject({
    routes: z
      .record(
        z.string().regex(/^\/[^?#\s]{0,1023}$/, { error: 'must start with / and hold no query' }),
        Behaviour,
      )
      .describe('Behaviours by request path (exact, without query).')
      .optional(),
    fallback: Behaviour.optional(),
  }),
);

export const RecordedRequest = named(
  'RecordedRequest',
  z.strictObject({
    seq: z.int(),
    at: z.int().describe('Wall-clock epoch ms of arrival.'),
    method: z.string(),
    target: z.string().describe('The request-target as sent (path and raw query, not decoded).'),
    path: z.string(),
    query: z.string().nullable().describe('The raw query without `?`.'),
    httpVersion: z.string(),
    headers: z
      .array(z.tuple([z.string(), z.string()]))
      .describe('Header lines in order with their original name casing.'),
    body: z.string().nullable().describe('The body as UTF-8 text, or null when it is not valid UTF-8.'),
    bodyBase64: z.string(),
    bodyTruncated: z.boolean().describe('The body was longer than 1 MiB; only the start is kept.'),
    tlsProtocol: z
      .string()
      .nullable()
      .meta({ examples: ['TLSv1.3', 'TLSv1.2'] }),
    auth: z.enum(['none', 'ok', 'challenged', 'rejected']),
    status: z.int().nullable().describe('The status answered; null when not (yet) answered.'),
    responseContentEncoding: z
      .string()
      .nullable()
      .describe(
        'The `Content-Encoding` header the endpoint sent with its answer (e.g. `gzip`); null when it sent none or has not (yet) answered.',
      ),
  }),
);
