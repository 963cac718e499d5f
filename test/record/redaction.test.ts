import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Recording } from '../../simulators/pbx/index.ts';
import { xmlRpcAuthValue } from '../../src/clients/xmlrpc-auth-value.ts';
import { recordCommand } from '../../src/record/record-command.ts';
import { Redactor } from '../../src/record/redact.ts';
import { startTestPbx, tempFolder, writeJson } from './support.ts';

/** Values of the simulated PBX (default state) that identify it or its people. */
const IDENTIFYING = [
  'pbx-sim-01', // host name
  'PBXM-2041-7731', // serial number
  'HWID-7C3A-91F0-22B4', // hardware id
  'Example Trading AG', // licence owner
  '10.20.1.21', // peer address
  '217.0.18.4', // trunk address
  '192.0.2.6', // backup share
  '+4930123456', // phone numbers
  '4930123456',
  '4711234',
  '0307654321',
  'tel.t-online.de', // provider host
  'SIP/201-0000012c', // channel names
  'SIP/trunk-telekom-0000012a',
];

test('record: no secret and no address of the target survives in the recording or the Checkmk dump; every kind is counted; no POST but XML-RPC', async () => {
  const folder = await tempFolder();
  const methods: string[] = [];
  const pbx = await startTestPbx({
    maintenanceToken: true,
    wrapWebRoute: (route) => ({
      ...route,
      handle: (req, res) => {
        methods.push(`${req.method} ${route.prefix}`);
        route.handle(req, res);
      },
    }),
  });
  try {
    const rules = await writeJson(join(folder.dir, 'rules.json'), {
      rules: [{ name: 'module-vendor', pattern: 'Simulated Systems GmbH', kind: 'user' }],
    });
    const result = await recordCommand(
      {
        target: await writeJson(join(folder.dir, 'target.json'), pbx.target),
        out: join(folder.dir, 'rec.json'),
        rules,
      },
      folder.dir,
    );
    const text = await readFile(result.recording, 'utf8');
    const dump = await readFile(result.dump, 'utf8');
    const maintenance = pbx.target['maintenance'] as { token: string };
    const secrets = [
      'Pass123',
      xmlRpcAuthValue('123', 'Pass123').split(':')[1]!,
      xmlRpcAuthValue('123', 'Pass123-wrong').split(':')[1]!,
      maintenance.token,
      pbx.host,
      new URL(pbx.target.pbx['webUrl'] as string).host,
      'lab-pbx-nordhafen',
      'Simulated Systems GmbH',
      ...IDENTIFYING,
    ];
    for (const secret of secrets) {
      assert.ok(!text.includes(secret), `the recording holds ${JSON.stringify(secret)}`);
      assert.ok(!dump.includes(secret), `the Checkmk dump holds ${JSON.stringify(secret)}`);
    }
    const recording = JSON.parse(text) as Recording;
    const counts = recording.redaction.counts;
    for (const kind of ['host', 'serial', 'address', 'user', 'phone', 'channel', 'rule:module-vendor'])
      assert.ok((counts[kind] ?? 0) > 0, `no ${kind} counted: ${JSON.stringify(counts)}`);
    assert.deepEqual(recording.redaction.rules, ['module-vendor']);
    // One pseudonym per value in every face: the host name of the agent text is the JSON's.
    const sample = recording.samples[0]!;
    const json = sample.dataEndpoint!.http.find((fetch) => fetch.request === 'GET /json')!;
    const jsonBody = JSON.parse(('text' in json.bytes ? json.bytes.text : '').slice(json.bodyOffset)) as {
      hostname: string;
      applianceSerialNumber: string;
    };
    assert.match(dump, new RegExp(`\\nhostname ${jsonBody.hostname}\\n`));
    assert.match(dump, new RegExp(`\\nappliance_serial_number ${jsonBody.applianceSerialNumber}\\n`));
    const xml = sample.dataEndpoint!.http.find((fetch) => fetch.request === 'GET /xml')!;
    assert.ok(JSON.stringify(xml.bytes).includes(jsonBody.applianceSerialNumber));
    // A redacted body keeps a true Content-Length.
    const length = Number(json.headers?.find(([name]) => name.toLowerCase() === 'content-length')?.[1]);
    assert.equal(length, json.length - (json.bodyOffset ?? 0));
    // The maintenance command list was read (GET), and nothing but XML-RPC was posted.
    assert.equal((sample.maintenance!.commandList as { status: number }).status, 200);
    assert.deepEqual(
      methods.filter((method) => method.startsWith('POST')),
      methods.filter((method) => method === 'POST /xml-rpc'),
    );
    assert.ok(methods.includes('GET /fp/7ce0d8df/api/v1'), methods.join(', '));
  } finally {
    await pbx.handle.close();
    await folder.remove();
  }
});

test('record: without a maintenance token the command list is not fetched', async () => {
  const folder = await tempFolder();
  const pbx = await startTestPbx();
  try {
    const result = await recordCommand(
      {
        target: await writeJson(join(folder.dir, 'target.json'), pbx.target),
        out: join(folder.dir, 'rec.json'),
      },
      folder.dir,
    );
    assert.equal(result.value.samples[0]?.maintenance, undefined);
  } finally {
    await pbx.handle.close();
    await folder.remove();
  }
});

test('pseudonyms are deterministic per key, keep their shape and are never redacted again', async () => {
  const folder = await tempFolder();
  try {
    const key = Buffer.alloc(32, 7);
    const a = new Redactor(key);
    const b = new Redactor(key);
    const c = new Redactor(Buffer.alloc(32, 8));
    for (const r of [a, b, c]) {
      r.addLiteral('pbx-lab.example.net', 'host');
      r.addLiteral('+4930123456', 'phone');
      r.addLiteral('SIP/4461.phone-0000567d', 'channel');
    }
    const input = 'pbx-lab.example.net +4930123456 SIP/4461.phone-0000567d 10.1.2.3 anna@example.org';
    const once = a.apply(input);
    assert.equal(b.apply(input), once);
    assert.notEqual(c.apply(input), once);
    assert.match(
      once,
      /^host-[0-9a-f]{8} \+999\d{7} SIP\/chan-[0-9a-f]{8} 198\.1[89]\.\d+\.\d+ user-[0-9a-f]{8}@example\.invalid$/,
    );
    const again = new Redactor(Buffer.alloc(32, 9));
    assert.equal(again.apply(once), once, 'a pseudonym is a fixed point');
    // A fixed-width column keeps its place.
    const column = new Redactor(key);
    assert.equal(column.apply('10.20.1.21      D   No').indexOf('D'), '10.20.1.21      D   No'.indexOf('D'));
    await writeFile(join(folder.dir, 'x'), '');
  } finally {
    await folder.remove();
  }
});
