import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  JSON_ERROR_TEXT,
  RenderError,
  renderFormat,
  renderLocalDocumentCached,
} from '../../../../../simulators/pbx/snapshot/render/render-format.ts';
import { scenarioSnapshot } from './snapshot-of.ts';

const NO_FAULTS = { renderError: false, jsonError: false };

test('each format is rendered once per snapshot and then served from snapshot.rendered', () => {
  const snapshot = scenarioSnapshot('healthy');
  for (const format of ['checkmk', 'xml', 'json'] as const) {
    const first = renderFormat(snapshot, format, NO_FAULTS);
    assert.equal(renderFormat(snapshot, format, NO_FAULTS), first);
    assert.equal(snapshot.rendered.get(format), first);
  }
  assert.ok(renderFormat(snapshot, 'checkmk', NO_FAULTS).toString('utf8').startsWith('<<<monitor_agent>>>'));
  assert.ok(renderFormat(snapshot, 'xml', NO_FAULTS).toString('utf8').includes('<pbx>'));
  assert.equal(JSON.parse(renderFormat(snapshot, 'json', NO_FAULTS).toString('utf8')).hostname, 'pbx-sim-01');
});

test('MON-ERR-RENDER-HTTP, MON-ERR-RENDER-RAW: the render-error fault throws RenderError for every format', () => {
  const snapshot = scenarioSnapshot('healthy');
  for (const format of ['checkmk', 'xml', 'json'] as const) {
    assert.throws(() => renderFormat(snapshot, format, { renderError: true, jsonError: false }), RenderError);
  }
  assert.equal(snapshot.rendered.size, 0);
});

test('MON-ERR-JSON: the JSON fault gives {"error": text} for JSON only, and is not memoised', () => {
  const snapshot = scenarioSnapshot('healthy');
  const faulty = { renderError: false, jsonError: true };
  assert.deepEqual(JSON.parse(renderFormat(snapshot, 'json', faulty).toString('utf8')), {
    error: JSON_ERROR_TEXT,
  });
  assert.ok(renderFormat(snapshot, 'checkmk', faulty).toString('utf8').startsWith('<<<'));
  assert.equal(snapshot.rendered.has('json'), false);
  assert.ok('hostname' in JSON.parse(renderFormat(snapshot, 'json', NO_FAULTS).toString('utf8')));
});

test('the local document is memoised under the key local', () => {
  const snapshot = scenarioSnapshot('healthy');
  const text = renderLocalDocumentCached(snapshot);
  assert.ok(text.includes('<local>'));
  const cached = snapshot.rendered.get('local');
  assert.ok(cached);
  assert.equal(renderLocalDocumentCached(snapshot), text);
  assert.equal(snapshot.rendered.get('local'), cached);
});
