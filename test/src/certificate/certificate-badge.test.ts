import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { badgeMessage, badgeSvg, certificateBadge } from '../../../src/certificate/certificate-badge.ts';
import { passedPredicate } from './sample-certificate.ts';

test('the badge says the level and the certified labels, else the passed clauses', async () => {
  const coverage = { declared: 20, tracked: 3, notTraced: 0, watched: 2, labels: 23 };
  assert.equal(
    badgeMessage(await passedPredicate({ level: { value: 'values' }, coverage: { value: coverage } })),
    'values · 23/23',
  );
  assert.equal(
    badgeMessage(
      await passedPredicate({ level: { value: 'form' }, coverage: { value: { ...coverage, labels: 0 } } }),
    ),
    `form · ${(await passedPredicate()).clauses.length}/${(await passedPredicate()).clauses.length}`,
  );
  const some = await passedPredicate();
  some.clauses[0] = { ...(some.clauses[0] as (typeof some.clauses)[0]), verdict: 'not-verifiable' };
  assert.equal(badgeMessage(some), `${some.clauses.length - 1}/${some.clauses.length}`);
});

test('the badge is one well-formed SVG whose two halves add up to its width, text escaped', async () => {
  const svg = certificateBadge(await passedPredicate({ level: { value: 'state' } }));
  assert.equal(XMLValidator.validate(svg), true);
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg) as {
    svg: { '@_width': string; title: string; g: { rect: { '@_width': string; '@_fill': string }[] }[] };
  };
  const [left, right] = parsed.svg.g[0]?.rect ?? [];
  assert.equal(Number(left?.['@_width']) + Number(right?.['@_width']), Number(parsed.svg['@_width']));
  assert.equal(right?.['@_fill'], '#97ca00');
  assert.match(parsed.svg.title, /^PBX certified: state · \d+\/\d+$/);
  const hostile = badgeSvg('a<b', '"x" & \'y\'', '#4c1');
  assert.equal(XMLValidator.validate(hostile), true);
  assert.doesNotMatch(hostile, /a<b|"x"/);
});
