import { z } from 'zod';
import { named } from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';

// The answers of the console's operations (issue 32), named as schemas/pbx-control.openapi.yaml names them.

/** What one event of `GET /changes` carries: which revision of the state it follows, and when. */
export const ChangeNotice = named(
  'ChangeNotice',
  z.object({
    revision: z.int().describe("The state's revision after the change."),
    at: z.int().describe('Virtual time of the change, epoch ms.'),
  }),
);
export type ChangeNotice = z.output<typeof ChangeNotice>;

/** What one face of the data endpoint answered, as a client fetching it now gets it. */
export const ServedFace = named(
  'ServedFace',
  z.object({
    path: z.enum(['/checkmk', '/json', '/xml']).describe('The path fetched on the data endpoint.'),
    status: z.int().nullable().describe('HTTP status; null when the endpoint did not answer.'),
    contentType: z.string().nullable(),
    body: z.string().describe('The body as text (UTF-8), at most 256 KiB.'),
    error: z.string().optional().describe('Why there is no answer (the endpoint is stopped, refused, ...).'),
  }),
);
export type ServedFace = z.output<typeof ServedFace>;

/** The three faces of the data endpoint, fetched one after another. */
export const ServedFaces = named(
  'ServedFaces',
  z.object({
    agentText: ServedFace,
    json: ServedFace,
    xml: ServedFace,
    at: z.int().describe('Virtual time of the fetch, epoch ms.'),
  }),
);
export type ServedFaces = z.output<typeof ServedFaces>;

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
    summary: 'Server-Sent Events: one event per change of the state, the faults, the module log or the clock',
    tag: 'console',
    description:
      'A stream of Server-Sent Events that stays open until the client goes away: one event each time the state (`event: state`), the active faults (`faults`), the module log (`log`) changes, the virtual clock is advanced (`clock`) or the simulator is reset (`reset`); changes within 50 ms go out as one event per name. A comment line every 15 s keeps an idle stream open. The console (`/console`) reads it to show a change made elsewhere without polling; `curl -N <control>/changes` shows it too.',
    answers: 'The event stream; each event is a ChangeNotice.',
    actsOn: 'nothing (reads)',
    produces: 'text/event-stream',
    output: ChangeNotice,
  },
  servedFaces: {
    method: 'GET',
    path: '/faces',
    summary: 'What the data endpoint serves now: agent text, JSON and XML',
    tag: 'console',
    description:
      'Fetches `/checkmk` (the agent text), `/json` and `/xml` from the data endpoint over its own socket, as a monitoring client would, and answers each as status, content type and body (at most 256 KiB). A face that does not answer (the endpoint stopped or inactive) has `status: null` and an `error`.',
    answers: 'The three faces.',
    actsOn: 'nothing (reads the data endpoint over its socket)',
    output: ServedFaces,
  },
});
