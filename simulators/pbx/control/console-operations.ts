import { answer } from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';

/** What one event of `GET /changes` carries: which revision of the state it follows, and when. */
export interface ChangeNotice {
  /** The state's revision after the change (it grows with every change). */
  revision: number;
  /** Virtual time of the change, epoch ms. */
  at: number;
}

/** What one face of the data endpoint answered, as a client fetching it now gets it. */
export interface ServedFace {
  /** The path fetched on the data endpoint (`/checkmk`, `/json`, `/xml`). */
  path: string;
  /** HTTP status; `null` when the endpoint did not answer (not listening, closed, timed out). */
  status: number | null;
  contentType: string | null;
  /** The body as text (UTF-8), at most 256 KiB. */
  body: string;
  /** Why there is no answer (the endpoint is stopped, refused the connection, …). */
  error?: string;
}

/** The three faces of the data endpoint, fetched one after another (issue 32). */
export interface ServedFaces {
  agentText: ServedFace;
  json: ServedFace;
  xml: ServedFace;
  /** Virtual time of the fetch, epoch ms. */
  at: number;
}

/**
 * What the console (issue 32) needs of a PBX beyond the state operations: a live change feed as
 * Server-Sent Events, so a page shows a change made elsewhere (curl, a test) without polling, and
 * what each face of the data endpoint serves now, fetched over the endpoint's own socket as a
 * monitoring client would. Effects in console-effects.ts.
 */
export const CONSOLE_OPERATIONS = defineOperations({
  watchChanges: {
    method: 'GET',
    path: '/changes',
    summary: 'Server-Sent Events: one event per change of the state, the faults or the module log',
    actsOn: 'nothing (reads)',
    stream: 'text/event-stream',
    output: answer<ChangeNotice>(),
  },
  servedFaces: {
    method: 'GET',
    path: '/faces',
    summary: 'What the data endpoint serves now: agent text, JSON and XML',
    actsOn: 'nothing (reads the data endpoint over its socket)',
    output: answer<ServedFaces>(),
  },
});
