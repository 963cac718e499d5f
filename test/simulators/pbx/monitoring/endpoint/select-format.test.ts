import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { selectFormat } from '../../../../../simulators/pbx/monitoring/endpoint/select-format.ts';
import type { SnapshotFormat } from '../../../../../simulators/pbx/state/types.ts';

const FORMATS: SnapshotFormat[] = ['checkmk', 'xml', 'json'];
const format = fc.constantFrom<SnapshotFormat>(...FORMATS);
const known = (value: string): value is SnapshotFormat => (FORMATS as string[]).includes(value);
/** Segment text that needs no percent-encoding and is not a format token. */
const word = fc.stringMatching(/^[a-zA-Z0-9_.-]{0,12}$/).filter((w) => !known(w));

test('MON-GET-CHECKMK, MON-GET-XML, MON-GET-JSON: the path names the format', () => {
  assert.equal(selectFormat('/checkmk', 'json'), 'checkmk');
  assert.equal(selectFormat('/xml', 'checkmk'), 'xml');
  assert.equal(selectFormat('/json', 'checkmk'), 'json');
  assert.equal(selectFormat('/json/', 'checkmk'), 'json');
  assert.equal(selectFormat('http://pbx.example:6556/xml', 'checkmk'), 'xml');
});

test('MON-UNSPEC-PATH-FORMAT-CONFLICT: an unknown format value gives the default even on a known path', () => {
  assert.equal(selectFormat('/xml?format=foo', 'checkmk'), 'checkmk');
  assert.equal(selectFormat('/xml?format=', 'json'), 'json');
});

test('tokens are case-sensitive and decoded', () => {
  assert.equal(selectFormat('/JSON', 'checkmk'), 'checkmk');
  assert.equal(selectFormat('/%6Ason', 'checkmk'), 'json');
  assert.equal(selectFormat('/?format=x%6Dl', 'checkmk'), 'xml');
  assert.equal(selectFormat('/%E0%A4%A', 'xml'), 'xml');
  assert.equal(selectFormat('*', 'json'), 'json');
});

test('the first format parameter counts', () => {
  assert.equal(selectFormat('/?format=json&format=xml', 'checkmk'), 'json');
});

test('MON-QUERY-FORMAT, MON-QUERY-OVERRIDES-PATH: a known format parameter wins over any path', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        format.map((f) => `/${f}`),
        word.map((w) => `/${w}`),
      ),
      format,
      format,
      word,
      (path, wanted, fallback, other) => {
        assert.equal(selectFormat(`${path}?${other}=1&format=${wanted}`, fallback), wanted);
      },
    ),
  );
});

test('MON-UNKNOWN-PATH: an unknown path without format parameter gives the default', () => {
  fc.assert(
    fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), format, (segments, fallback) => {
      const path = `/${segments.join('/')}`;
      fc.pre(!known(path.slice(1)) && !known(path.slice(1, -1)));
      assert.equal(selectFormat(path, fallback), fallback);
    }),
  );
});

test('MON-UNKNOWN-FORMAT: an unknown format value gives the default', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        format.map((f) => `/${f}`),
        word.map((w) => `/${w}`),
      ),
      word,
      format,
      (path, value, fallback) => {
        assert.equal(selectFormat(`${path}?format=${value}`, fallback), fallback);
      },
    ),
  );
});

test('MON-QUERY-FORMAT, MON-UNKNOWN-PATH: any request target gives exactly the model format', () => {
  const query = fc.array(fc.tuple(fc.constantFrom('format', 'x', 'fmt'), fc.oneof(format, word)), {
    maxLength: 3,
  });
  fc.assert(
    fc.property(fc.oneof(format, word), query, format, (segment, params, fallback) => {
      const target = `/${segment}${params.length ? `?${params.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}`;
      const formatParam = params.find(([k]) => k === 'format');
      const expected = formatParam
        ? known(formatParam[1])
          ? formatParam[1]
          : fallback
        : known(segment)
          ? segment
          : fallback;
      const selected = selectFormat(target, fallback);
      assert.ok(FORMATS.includes(selected));
      assert.equal(selected, expected);
    }),
  );
});

test('never throws for arbitrary targets and always gives one of the three formats', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 64 }), format, (target, fallback) => {
      assert.ok(FORMATS.includes(selectFormat(target, fallback)));
    }),
  );
});
