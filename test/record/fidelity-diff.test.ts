import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffFaces } from '../../src/record/fidelity-diff.ts';

const against = { against: 'simulator' } as const;

test('the XML and JSON faces are walked alike: a differing value, a place only on one side, an unparsable document', () => {
  const xml = diffFaces(
    { xml: '<pbx><version>7.1</version><appliance><type>a</type></appliance><extra>1</extra></pbx>' },
    { xml: '<pbx><version>7.2</version><appliance><type>b</type></appliance></pbx>' },
    against,
  );
  assert.deepEqual(
    xml.map((f) => [f.class, f.place, f.clause]),
    [
      ['fidelity-defect', 'pbx/version', 'MON-XML-CHILDREN'],
      ['fidelity-defect', 'pbx/appliance/type', 'MON-XML-CHILDREN'],
      ['extension', 'pbx/extra', 'MON-VERSIONING-ADDITIVE'],
    ],
  );
  assert.equal(xml[2]?.side, 'recording');
  const json = diffFaces(
    { json: '{"version":"7.1","peers":[{"name":"a"}]}' },
    { json: '{"version":"7.1","peers":[{"name":"b"}],"more":true}' },
    { against: 'recording' },
  );
  assert.deepEqual(
    json.map((f) => [f.class, f.place, f.clause]),
    [
      ['changed', '$.peers[0].name', 'MON-JSON-OBJECT'],
      ['unspecified', '$.more', 'MON-UNSPEC-JSON-FIELDS'],
    ],
  );
  // fast-xml-parser reads even a broken XML document leniently; a broken JSON one is reported.
  const broken = diffFaces({ json: '{' }, { json: '{}' }, against);
  assert.deepEqual(
    broken.map((f) => [f.class, f.face, f.place, f.clause]),
    [['fidelity-defect', 'json', '$', 'MON-JSON-OBJECT']],
  );
  assert.match(broken[0]?.note ?? '', /^not JSON: /);
});
