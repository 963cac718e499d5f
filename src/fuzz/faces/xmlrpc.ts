import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import type { FuzzGenerator, FuzzTargetInfo, LivenessProbe } from '../types.ts';
import { hostPort, httpRequest, type WireAnswer } from '../wire.ts';
import { baseFinding, mismatch, nastyText, preview, randomBytes } from './common.ts';

type XmlRpc = NonNullable<FuzzTargetInfo['xmlrpc']>;

export interface XmlRpcInput {
  body: Buffer;
  /** The credentials parameter as sent (already URL-encoded), or none. */
  auth: string | null;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A value of a wrong or odd XML-RPC type. */
const oddValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '<int>abc</int>',
    '<int>99999999999999999999</int>',
    '<i4></i4>',
    '<double>NaN</double>',
    '<boolean>2</boolean>',
    '<dateTime.iso8601>yesterday</dateTime.iso8601>',
    '<base64>!!!</base64>',
    '<nil/>',
    '<array><data></data></array>',
    '<struct><member><value><int>1</int></value></member></struct>',
    '<struct><member><name></name></member></struct>',
    '<unknownType>x</unknownType>',
    '',
  ),
  nastyText(30).map((t) => `<string>${escapeXml(t)}</string>`),
  fc
    .integer({ min: 1, max: 200 })
    .map((depth) => `${'<array><data><value>'.repeat(depth)}1${'</value></data></array>'.repeat(depth)}`),
);

/** DTDs and entities: expansion bombs, external entities, parameter entities. */
const entityPayload = fc.constantFrom(
  '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><methodCall><methodName>&c;</methodName></methodCall>',
  '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><methodCall><methodName>&x;</methodName></methodCall>',
  '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY % p SYSTEM "http://127.0.0.1:1/x">%p;]><methodCall/>',
  '<methodCall><methodName>&unknown;</methodName></methodCall>',
  '<methodCall><methodName>&#0;</methodName></methodCall>',
  '<methodCall><methodName>&#xD800;</methodName></methodCall>',
  '<![CDATA[<methodCall>]]>',
  '<?xml version="1.0" encoding="UTF-16"?><methodCall/>',
);

function methodCall(method: string, params: string[]): string {
  const list = params.map((p) => `<param><value>${p}</value></param>`).join('');
  return `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>${list}</params></methodCall>`;
}

/** Cuts, splices or inserts bytes into a well-formed method call. */
const mutated = (method: string) =>
  fc
    .record({
      params: fc.array(oddValue, { maxLength: 3 }),
      at: fc.nat(),
      cut: fc.nat({ max: 40 }),
      insert: randomBytes(16),
    })
    .map(({ params, at, cut, insert }) => {
      const text = Buffer.from(methodCall(method, params), 'utf8');
      const position = at % (text.length + 1);
      return Buffer.concat([
        text.subarray(0, position),
        insert,
        text.subarray(Math.min(text.length, position + cut)),
      ]);
    });

function isFault(answer: WireAnswer): boolean {
  return /<methodResponse>\s*<fault>/.test(answer.http?.body.toString('utf8') ?? '');
}

/**
 * What a server may answer a request without valid credentials instead of parsing it: the specs
 * show no limits of XML-RPC (MON-UNSPEC-LIMITS), and bounding what an unauthenticated sender can
 * make the server do is the robust choice (a body limit, a parse budget; issue 20, item 2).
 */
const LIMIT_STATUSES = new Set([413, 429, 503]);

/**
 * HTTP 200 with a `methodResponse`; `fault` when one must be a fault. Without valid credentials
 * (`signedIn` false) a limit status (413, 429, 503) is an answer too.
 */
function checkXmlRpc(answer: WireAnswer, mustFault: boolean, signedIn: boolean) {
  const base = baseFinding(answer);
  if (base) return base;
  const http = answer.http;
  if (!http) return mismatch(`expected HTTP 200 with a methodResponse, got ${answer.bytes.length} bytes`);
  if (!signedIn && LIMIT_STATUSES.has(http.status)) return null;
  if (http.status !== 200)
    return mismatch(`expected an XML-RPC answer in HTTP 200, got ${http.status}: ${preview(http.body)}`);
  const text = http.body.toString('utf8');
  if (!/<methodResponse>/.test(text))
    return mismatch(`HTTP 200 without a methodResponse: ${preview(http.body)}`);
  if (mustFault && !isFault(answer)) return mismatch(`expected a fault, got ${preview(http.body)}`);
  return null;
}

/** The XML-RPC generators (monitoring-endpoint-and-xmlrpc.md, "XML-RPC"). */
export function xmlrpcGenerators(x: XmlRpc): FuzzGenerator<XmlRpcInput>[] {
  const { host, port } = hostPort(x.webUrl);
  const data = `${x.instanceName}.GetMonitoringData`;
  const dataXml = `${x.instanceName}.GetMonitoringDataXML`;
  const known = new Set([data, dataXml, `${x.instanceName}.isActiveDirectoryEnabled`]);
  const goodAuth = encodeURIComponent(x.authValue);
  const request = (input: XmlRpcInput) => ({
    host,
    port,
    bytes: httpRequest(
      'POST',
      input.auth === null ? x.path : `${x.path}?${x.authParam}=${input.auth}`,
      [['Content-Type', 'text/xml']],
      input.body,
    ),
  });
  // Cross-shrinking lets a shrunk failure drop its credential (to `null`, the first) when the
  // credential plays no part in it, instead of keeping a 128-hex wrong one (issue 20, item 22).
  const badAuth = fc.oneof(
    { withCrossShrink: true },
    fc.constant(null),
    fc.constant(''),
    nastyText(60).map((t) => encodeURIComponent(t)),
    fc
      .stringMatching(/^[0-9a-f]{128}$/)
      .map((hex) => encodeURIComponent(`${x.authValue.split(':')[0]}:${hex}`)),
    fc.stringMatching(/^[0-9a-f]{128}$/).map((hex) => encodeURIComponent(`nobody:${hex}`)),
  );
  return [
    {
      face: 'xmlrpc',
      id: 'xmlrpc-malformed',
      title:
        'XML-RPC: malformed XML, control characters, wrong types and entity payloads get an XML-RPC answer in HTTP 200, a fault whenever the body is not well-formed',
      clauses: ['XMLRPC-ENDPOINT'],
      weight: 5,
      arbitrary: fc.record({
        body: fc.oneof(
          randomBytes(300),
          mutated(data),
          mutated(dataXml),
          entityPayload.map((t) => Buffer.from(t, 'utf8')),
          fc.array(oddValue, { maxLength: 4 }).map((params) => Buffer.from(methodCall(data, params), 'utf8')),
        ),
        auth: fc.oneof({ withCrossShrink: true }, badAuth, fc.constant(goodAuth)),
      }),
      request,
      check: (input, answer) => {
        const wellFormed = XMLValidator.validate(input.body.toString('utf8')) === true;
        return checkXmlRpc(answer, !wellFormed, input.auth === goodAuth);
      },
    },
    {
      face: 'xmlrpc',
      id: 'xmlrpc-no-login',
      title:
        'XML-RPC: a data query without credentials or with wrong ones is a fault in HTTP 200, whatever the body',
      clauses: ['XMLRPC-ERR-NO-LOGIN', 'XMLRPC-ERR-BAD-LOGIN'],
      weight: 3,
      arbitrary: fc.record({
        body: fc.oneof(
          fc
            .constantFrom(data, dataXml)
            .chain((m) =>
              fc.array(oddValue, { maxLength: 3 }).map((p) => Buffer.from(methodCall(m, p), 'utf8')),
            ),
          fc.constantFrom(data, dataXml).chain((m) => mutated(m)),
        ),
        auth: badAuth,
      }),
      request,
      check: (_, answer) => checkXmlRpc(answer, true, false),
    },
    {
      face: 'xmlrpc',
      id: 'xmlrpc-unknown-method',
      title: 'XML-RPC: an unknown method name is a fault in HTTP 200, with or without credentials',
      clauses: ['XMLRPC-ERR-UNKNOWN-METHOD'],
      weight: 2,
      arbitrary: fc.record({
        body: fc
          .oneof(
            nastyText(60),
            fc.constantFrom(...known).map((k) => `${k} `),
            fc.constantFrom(...known).map((k) => k.toLowerCase()),
            fc.constantFrom(
              'Monitoring',
              '.GetMonitoringData',
              'system.listMethods',
              'Monitoring.GetMonitoringData.x',
            ),
          )
          .filter((name) => !known.has(name))
          .map((name) => Buffer.from(methodCall(escapeXml(name), ['<struct></struct>']), 'utf8')),
        auth: fc.oneof({ withCrossShrink: true }, badAuth, fc.constant(goodAuth)),
      }),
      request,
      check: (input, answer) => checkXmlRpc(answer, true, input.auth === goodAuth),
    },
  ];
}

/** Signed in, so a server's limits on unauthenticated work (above) never make it look down. */
export function xmlrpcProbe(x: XmlRpc): LivenessProbe {
  const { host, port } = hostPort(x.webUrl);
  return {
    face: 'xmlrpc',
    request: () => ({
      host,
      port,
      bytes: httpRequest(
        'POST',
        `${x.path}?${x.authParam}=${encodeURIComponent(x.authValue)}`,
        [['Content-Type', 'text/xml']],
        methodCall(`${x.instanceName}.isActiveDirectoryEnabled`, ['<struct></struct>']),
      ),
    }),
    ok: (answer) => answer.http?.status === 200 && /activeDirectoryEnabled/.test(answer.http.body.toString()),
  };
}
