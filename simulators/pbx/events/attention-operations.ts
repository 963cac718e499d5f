import { fields, flag, integer, shaped } from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';
import type { AttentionEvent } from './attention-event.ts';
import type { RaiseOutcome, ForwarderStatus as Status } from './attention-forwarder.ts';
import {
  AttentionEventInput,
  ControllerSettingsInput,
  ForwarderStatus,
  RaiseAnswer,
} from './attention-schemas.ts';
import type { ControllerSettings } from './controller-link.ts';

/** How long `waitDelivered` waits when not told (real time). */
export const DEFAULT_DELIVERY_WAIT_MS = 10_000;

/**
 * The PBX control-plane operations of attention events (schemas/pbx-control.openapi.yaml, tag
 * `pbx-events`; docs/fleet-controller.md, "PBX control plane"): raise an event as a module would,
 * release the partner (EVENT-UNSPEC-PARTNER-RELEASE), point the PBX at a controller, cut and
 * restore its link, and wait until everything raised has been delivered. `attentionEffects`
 * (attention-effects.ts) gives what each does.
 */
export const ATTENTION_OPERATIONS = defineOperations({
  raiseAttentionEvent: {
    method: 'POST',
    path: '/events/attention',
    summary: 'Raises an attention event as a module would',
    tag: 'pbx-events',
    description:
      "Written as a system report (EVENT-SYSTEM-REPORT), then forwarded when a partner is released (EVENT-FORWARD-WITH-PARTNER), within the module's limit (EVENT-THROTTLE-*), at once or into the outage buffer (EVENT-BUFFER-OFFLINE).",
    answers: 'What became of it.',
    actsOn: 'the forwarder (throttle, buffer, link)',
    input: shaped<AttentionEvent, unknown>(AttentionEventInput),
    output: shaped<{ outcome: RaiseOutcome }>(RaiseAnswer),
  },
  setPartnerReleased: {
    method: 'PUT',
    path: '/events/partner',
    summary: 'Releases or withdraws the partner',
    description:
      'Releases the partner (forwarding allowed, EVENT-FORWARD-WITH-PARTNER) or withdraws the release (EVENT-NO-FORWARD-WITHOUT-PARTNER; EVENT-UNSPEC-PARTNER-RELEASE).',
    tag: 'pbx-events',
    answers: 'Set.',
    actsOn: 'maintenance.partnerReleased',
    input: fields({ released: flag() }),
  },
  configureController: {
    method: 'PUT',
    path: '/events/controller',
    summary: 'Connects to a fleet controller (ingest, siteId, key), or disconnects with null',
    description:
      "Points the PBX at a fleet controller: the ingest address, site id and key that the controller's `registerPbx` gave. The PBX connects and forwards its attention events there; `null` disconnects. The key is a secret: never logged, never shown.",
    tag: 'pbx-events',
    answers: 'Configured.',
    actsOn: 'the controller link',
    input: shaped<ControllerSettings | null>(ControllerSettingsInput),
  },
  cutControllerLink: {
    method: 'POST',
    path: '/events/link/cut',
    summary: 'Cuts the link to the controller on the PBX side',
    description:
      'Cuts the link on the PBX side until restored; events raised meanwhile go to the outage buffer (EVENT-BUFFER-OFFLINE).',
    tag: 'pbx-events',
    answers: 'Cut.',
    actsOn: 'the controller link',
  },
  restoreControllerLink: {
    method: 'POST',
    path: '/events/link/restore',
    summary: 'Restores the link to the controller',
    description: 'Lets the PBX reconnect; the buffered events are delivered after the reconnect.',
    tag: 'pbx-events',
    answers: 'Restored.',
    actsOn: 'the controller link',
  },
  forwarderStatus: {
    method: 'GET',
    path: '/events/forwarder',
    summary: 'Link state, site and counters (never the key)',
    description:
      "The link state, the site it is configured for (never the key) and the forwarder's counters, which reconcile exactly (see `ForwarderStatus`).",
    tag: 'pbx-events',
    answers: 'The status.',
    actsOn: 'the forwarder (reads)',
    output: shaped<Status>(ForwarderStatus),
  },
  waitDelivered: {
    method: 'POST',
    path: '/events/wait-delivered',
    summary: 'Waits until the link is up and nothing waits; 504 with the status otherwise',
    description:
      'Waits (real time, at most `timeoutMs`, default 10 s) until the link is up and nothing is buffered or in flight. Answers the status; 504 with the status when that did not happen in time.',
    tag: 'pbx-events',
    answers: 'Delivered.',
    refusals: {
      504: { description: 'Not delivered in time; the answer is the status.', body: ForwarderStatus },
    },
    actsOn: 'the forwarder (waits)',
    input: fields({ timeoutMs: integer(0, 30_000).optional() }),
    output: shaped<Status>(ForwarderStatus),
    waitMs: (input: { timeoutMs?: number } | undefined) => input?.timeoutMs ?? DEFAULT_DELIVERY_WAIT_MS,
  },
});
