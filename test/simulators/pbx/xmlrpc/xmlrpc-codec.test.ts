import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import {
  isXmlRpcStruct,
  parseMethodCall,
  serializeFault,
  serializeResult,
} from '../../../../simulators/pbx/xmlrpc/xmlrpc-codec.ts';

const call = (method: string, params: string) =>
  Buffer.from(
    `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>${params}</params></methodCall>`,
  );

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<methodCall><methodName>&lol9;</methodName><params/></methodCall>`;

test('parseMethodCall decodes method name and a struct parameter', async () => {
  const parsed = await parseMethodCall(
    call(
      'Monitoring.GetMonitoringData',
      '<param><value><struct><member><name>useLocalChecks</name><value><boolean>1</boolean></value></member></struct></value></param>',
    ),
  );
  assert.deepEqual(parsed, {
    ok: true,
    methodName: 'Monitoring.GetMonitoringData',
    params: [{ useLocalChecks: true }],
  });
});

test('parseMethodCall decodes UTF-8 text regardless of the XML declaration', async () => {
  const parsed = await parseMethodCall(
    Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?><methodCall><methodName>Grüße.𝄞</methodName><params/></methodCall>',
      'utf8',
    ),
  );
  assert.deepEqual(parsed, { ok: true, methodName: 'Grüße.𝄞', params: [] });
});

test('parseMethodCall answers malformed XML with the parse-error fault', async () => {
  for (const body of ['<methodCall><methodName>x</methodName>', 'not xml at all', '<a><b></a>', '']) {
    const parsed = await parseMethodCall(Buffer.from(body));
    assert.equal(parsed.ok, false, body);
    if (!parsed.ok) assert.equal(parsed.fault.faultCode, -32700, body);
  }
});

test('parseMethodCall refuses billion laughs without expanding it', async () => {
  const before = process.memoryUsage().rss;
  const parsed = await parseMethodCall(Buffer.from(BILLION_LAUGHS));
  assert.equal(parsed.ok, false);
  if (!parsed.ok) {
    assert.equal(parsed.fault.faultCode, -32700);
    assert.match(parsed.fault.faultString, /DOCTYPE/);
  }
  assert.ok(process.memoryUsage().rss - before < 50 * 1024 * 1024);
});

test('parseMethodCall refuses a lone ENTITY declaration and a lower-case doctype', async () => {
  for (const body of ['<!ENTITY x "y"><methodCall/>', '<!doctype methodCall><methodCall/>']) {
    const parsed = await parseMethodCall(Buffer.from(body));
    assert.equal(parsed.ok ? 0 : parsed.fault.faultCode, -32700, body);
  }
});

test('parseMethodCall answers well-formed XML that is not a method call with the invalid-request fault', async () => {
  const bodies = [
    '<methodResponse><params><param><value><string>x</string></value></param></params></methodResponse>',
    '<html><body>hello</body></html>',
    '<methodCall><params/></methodCall>',
    '<methodCall><methodName>m</methodName><params><param><value><boolean>2</boolean></value></param></params></methodCall>',
  ];
  for (const body of bodies) {
    const parsed = await parseMethodCall(Buffer.from(body));
    assert.equal(parsed.ok ? 0 : parsed.fault.faultCode, -32600, body);
  }
});

test('serializeResult writes strings as strings and structs as structs', () => {
  const xml = serializeResult({ activeDirectoryEnabled: 'true', data: '<<<local>>>\n0 "x" - ok' });
  const doc = new XMLParser({ ignoreDeclaration: true, parseTagValue: false }).parse(xml);
  const members = doc.methodResponse.params.param.value.struct.member;
  assert.deepEqual(
    members.map((m: { name: string; value: { string: string } }) => [m.name, m.value.string]),
    [
      ['activeDirectoryEnabled', 'true'],
      ['data', '<<<local>>>\n0 "x" - ok'],
    ],
  );
  assert.doesNotMatch(xml, /<boolean>/);
});

test('serializeFault writes faultCode as int and faultString as string', () => {
  const xml = serializeFault({ faultCode: -32601, faultString: 'method not found: x' });
  assert.match(xml, /<fault>/);
  assert.match(xml, /<name>faultCode<\/name><value><int>-32601<\/int><\/value>/);
  assert.match(xml, /<name>faultString<\/name><value><string>method not found: x<\/string><\/value>/);
});

test('isXmlRpcStruct tells structs from other values', () => {
  assert.equal(isXmlRpcStruct({}), true);
  for (const v of [[], 'x', 1, true, null, new Date(0), Buffer.from('x'), undefined]) {
    assert.equal(isXmlRpcStruct(v), false, String(v));
  }
});
