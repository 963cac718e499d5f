import { renderFormat, renderLocalDocumentCached } from '../snapshot/render/render-format.ts';
import type { SnapshotCache } from '../snapshot/snapshot.ts';
import type { PbxStore } from '../state/store.ts';
import type { MonitoringData } from './monitoring-methods.ts';

/**
 * The XML-RPC data queries read the snapshot the data endpoint serves (MON-SHARED-SNAPSHOT): the
 * agent text is the `checkmk` rendering, memoised per snapshot, so within one cache lifetime
 * `GET /checkmk` and `GetMonitoringData` deliver the same bytes. The `render-error` fault makes the
 * renderer throw, which the methods turn into XMLRPC-ERR-COLLECTION.
 */
export function snapshotMonitoringData(store: PbxStore, cache: SnapshotCache): MonitoringData {
  return {
    agentText: () =>
      renderFormat(cache.get(), 'checkmk', {
        renderError: store.hasFault('render-error'),
        jsonError: false,
      }).toString('utf8'),
    localDocument: () => renderLocalDocumentCached(cache.get()),
  };
}
