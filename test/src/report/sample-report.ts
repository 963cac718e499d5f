import { EVIDENCE_MEDIA_TYPE, NOT_VERIFIABLE_MEDIA_TYPE } from '../../../src/report/attachments.ts';
import type { CompatibilityReport } from '../../../src/report/model.ts';
import { buildFromMessages } from './build-from-messages.ts';
import { syntheticEnvelopes } from './synthetic-envelopes.ts';
import { testCatalog } from './test-catalog.ts';

export const HOSTILE = '<script>alert("x")</script> & \u0001';

/** A report with every verdict, an expected failure, evidence and hostile text in it. */
export function sampleReport(): CompatibilityReport {
  const catalog = testCatalog();
  const first = catalog.clauses[0];
  if (first) first.rule = `Rule with ${HOSTILE}`;
  return buildFromMessages({
    catalog,
    envelopes: syntheticEnvelopes([
      { name: `passes ${HOSTILE}`, tags: ['@MON-A'], steps: [{ text: 'x', status: 'PASSED' }] },
      {
        name: 'fails',
        tags: ['@MON-B'],
        steps: [
          {
            keyword: 'Then',
            text: 'the reply matches',
            status: 'FAILED',
            message: `AssertionError: ${HOSTILE}\n    at step (x.ts:1:1)`,
            attachments: [
              {
                mediaType: EVIDENCE_MEDIA_TYPE,
                body: JSON.stringify({
                  exchange: 'HTTP GET /xml',
                  request: 'GET /xml HTTP/1.0',
                  response: `<local>${HOSTILE}</local>`,
                  details: { seed: 42, path: '0:1' },
                }),
              },
            ],
          },
        ],
      },
      { name: 'expected', tags: ['@MON-C'], steps: [{ text: 'z', status: 'FAILED', message: 'known' }] },
      {
        name: 'nv',
        tags: ['@XMLRPC-A'],
        steps: [
          {
            text: 'w',
            status: 'SKIPPED',
            attachments: [
              { mediaType: NOT_VERIFIABLE_MEDIA_TYPE, body: JSON.stringify({ reason: `no ${HOSTILE}` }) },
            ],
          },
        ],
      },
    ]),
    metadata: {
      target: 'lab-pbx',
      targetFile: '/etc/lab.json',
      startedAt: '2026-01-01T10:00:00.000Z',
      finishedAt: '2026-01-01T10:00:05.000Z',
      toolVersion: '0.1.0',
      tagExpression: '@MON or @XMLRPC',
    },
    expectedFailures: {
      path: '/x/lab-pbx.yaml',
      file: '/x/lab-pbx.yaml',
      entries: [{ clause: 'MON-C', reason: `vendor bug ${HOSTILE}` }],
    },
  });
}
