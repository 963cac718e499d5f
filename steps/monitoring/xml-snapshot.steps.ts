/** The XML snapshot's structure (xml-snapshot.feature). */
import assert from 'node:assert/strict';
import { type DataTable, Then } from '@cucumber/cucumber';
import { latestXmlRoot } from '../support/latest-snapshots.ts';
import { targetName } from '../support/monitoring-target-options.ts';
import type { PbxWorld } from '../support/world.ts';
import {
  childNamed,
  childrenNamed,
  isEmptyElement,
  parseXmlDocument,
  type XmlElement,
} from '../support/xml-document.ts';

function names(table: DataTable): string[] {
  return table
    .raw()
    .flat()
    .filter((n) => n !== '');
}

function element(world: PbxWorld, name: string): XmlElement {
  const found = childNamed(latestXmlRoot(world), name);
  assert.ok(found, `the root has no child "${name}"`);
  return found;
}

Then(
  'the body is a well-formed XML document with the root element {string}',
  function (this: PbxWorld, root: string) {
    assert.ok(this.reply, 'no reply');
    const parsed = parseXmlDocument(this.reply.body.toString('utf8'));
    assert.ok(parsed.ok, `not well-formed XML: ${parsed.ok ? '' : parsed.error}`);
    assert.equal(parsed.root.name, root);
  },
);

Then('the XML root has the children', function (this: PbxWorld, table: DataTable) {
  const root = latestXmlRoot(this);
  const missing = names(table).filter((n) => !childNamed(root, n));
  assert.deepEqual(missing, [], `the root "${root.name}" lacks children`);
});

Then('the XML root has a {string} child', function (this: PbxWorld, name: string) {
  assert.ok(childNamed(latestXmlRoot(this), name), `the root has no "${name}" child`);
});

Then('the XML root has no {string} child', function (this: PbxWorld, name: string) {
  assert.equal(childNamed(latestXmlRoot(this), name), undefined, `the root has a "${name}" child`);
});

Then('the XML element {string} has the children', function (this: PbxWorld, name: string, table: DataTable) {
  const parent = element(this, name);
  const missing = names(table).filter((n) => !childNamed(parent, n));
  assert.deepEqual(missing, [], `"${name}" lacks children`);
});

/**
 * Attribute names as the spec writes them; a neutral rendering (`engineUptime`) is looked up under
 * the target's original name from the target file's `pbx.originalNames` (MON-UNSPEC-NEUTRAL-NAMES).
 */
Then(
  'the XML element {string} has the attributes',
  function (this: PbxWorld, name: string, table: DataTable) {
    const found = element(this, name);
    const missing = names(table)
      .map((n) => targetName(this, n))
      .filter((n) => !(n in found.attributes));
    assert.deepEqual(missing, [], `"${name}" lacks attributes`);
  },
);

Then(
  'the {string} attribute of {string} holds a text',
  function (this: PbxWorld, attribute: string, name: string) {
    const actual = targetName(this, attribute);
    const value = element(this, name).attributes[actual];
    assert.ok(value !== undefined && value.trim() !== '', `"${name}/@${actual}" holds no text`);
  },
);

Then(
  'the XML element {string} has {int} {string} children',
  function (this: PbxWorld, name: string, count: number, child: string) {
    assert.equal(childrenNamed(element(this, name), child).length, count);
  },
);

Then('the XML element {string} is empty', function (this: PbxWorld, name: string) {
  const found = element(this, name);
  assert.ok(
    isEmptyElement(found),
    `"${name}" has content: ${found.children.length} children, text ${JSON.stringify(found.text)}`,
  );
});

Then(
  'the XML element {string} has {string} children, each with the attributes',
  function (this: PbxWorld, name: string, child: string, table: DataTable) {
    const children = childrenNamed(element(this, name), child);
    assert.ok(children.length > 0, `"${name}" has no "${child}" children`);
    children.forEach((c, i) => {
      const missing = names(table).filter((n) => !(n in c.attributes));
      assert.deepEqual(missing, [], `"${child}" #${i + 1} of "${name}" lacks attributes`);
    });
  },
);

Then(
  'the XML element {string} has {string} children, each holding a text',
  function (this: PbxWorld, name: string, child: string) {
    const children = childrenNamed(element(this, name), child);
    assert.ok(children.length > 0, `"${name}" has no "${child}" children`);
    children.forEach((c, i) => {
      assert.ok(c.text.trim() !== '', `"${child}" #${i + 1} of "${name}" holds no text`);
    });
  },
);

Then(
  'every {string} child of {string} has {string} children',
  function (this: PbxWorld, child: string, name: string, grandchild: string) {
    const children = childrenNamed(element(this, name), child);
    assert.ok(children.length > 0, `"${name}" has no "${child}" children`);
    children.forEach((c, i) => {
      assert.ok(
        childrenNamed(c, grandchild).length > 0,
        `"${child}" #${i + 1} of "${name}" has no "${grandchild}" children`,
      );
    });
  },
);
