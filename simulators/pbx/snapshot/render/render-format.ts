import type { SnapshotFormat } from '../../state/types.ts';
import type { Snapshot } from '../snapshot.ts';
import { renderAgentText } from './agent-text.ts';
import { renderJsonSnapshot } from './json-snapshot.ts';
import { renderLocalDocument } from './local-document.ts';
import { renderXmlSnapshot } from './xml-snapshot.ts';

/** An internal renderer error (fault `render-error`): the endpoint answers 500 or `ERROR:` (MON-ERR-RENDER-HTTP, MON-ERR-RENDER-RAW). */
export class RenderError extends Error {
  constructor(message = 'snapshot renderer failed (injected fault render-error)') {
    super(message);
    this.name = 'RenderError';
  }
}

/** The text of the JSON serialisation error body (MON-ERR-JSON). */
export const JSON_ERROR_TEXT = 'JSON serialisation failed (injected fault json-serialisation-error)';

/**
 * The bytes of one format of a snapshot, memoised in `snapshot.rendered` under the format name so
 * every request within one cache lifetime gets the same bytes (MON-FORMATS-SAME-SNAPSHOT).
 * Faults: `renderError` throws `RenderError`; `jsonError` turns only the JSON format into
 * `{"error":"<text>"}` (MON-ERR-JSON). Faulty answers are never memoised, so clearing the fault
 * heals the next request.
 */
export function renderFormat(
  snapshot: Snapshot,
  format: SnapshotFormat,
  faults: { renderError: boolean; jsonError: boolean },
): Buffer {
  if (faults.renderError) throw new RenderError();
  if (faults.jsonError && format === 'json')
    return Buffer.from(JSON.stringify({ error: JSON_ERROR_TEXT }), 'utf8');
  return memoised(snapshot, format, () => {
    if (format === 'checkmk') return renderAgentText(snapshot);
    if (format === 'xml') return renderXmlSnapshot(snapshot);
    return renderJsonSnapshot(snapshot);
  });
}

/** The `local` document of `GetMonitoringDataXML` for this snapshot, memoised under `local`. */
export function renderLocalDocumentCached(snapshot: Snapshot): string {
  return memoised(snapshot, 'local', () => renderLocalDocument(snapshot.state)).toString('utf8');
}

function memoised(snapshot: Snapshot, key: string, render: () => string): Buffer {
  const cached = snapshot.rendered.get(key);
  if (cached) return cached;
  const bytes = Buffer.from(render(), 'utf8');
  snapshot.rendered.set(key, bytes);
  return bytes;
}
