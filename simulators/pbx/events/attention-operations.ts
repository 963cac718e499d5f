import { answer, checkedByEffect, fields, flag, integer } from '../../shared/control/control-fields.ts';
import { defineOperations } from '../../shared/control/control-operation.ts';
import type { AttentionEvent } from './attention-event.ts';
import type { ForwarderStatus, RaiseOutcome } from './attention-forwarder.ts';
import type { ControllerSettings } from './controller-link.ts';

/** How long `waitDelivered` waits when not told (real time). */
export const DEFAULT_DELIVERY_WAIT_MS = 10_000;

/**
 * The PBX control-plane operations of attention events (schemas/fleet-control.openapi.yaml, tag
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
    actsOn: 'the forwarder (throttle, buffer, link)',
    input: checkedByEffect<AttentionEvent>(),
    output: answer<{ outcome: RaiseOutcome }>(),
  },
  setPartnerReleased: {
    method: 'PUT',
    path: '/events/partner',
    summary: 'Releases or withdraws the partner',
    actsOn: 'maintenance.partnerReleased',
    input: fields({ released: flag() }),
  },
  configureController: {
    method: 'PUT',
    path: '/events/controller',
    summary: 'Connects to a fleet controller (ingest, siteId, key), or disconnects with null',
    actsOn: 'the controller link',
    input: checkedByEffect<ControllerSettings | null>(),
  },
  cutControllerLink: {
    method: 'POST',
    path: '/events/link/cut',
    summary: 'Cuts the link to the controller on the PBX side',
    actsOn: 'the controller link',
  },
  restoreControllerLink: {
    method: 'POST',
    path: '/events/link/restore',
    summary: 'Restores the link to the controller',
    actsOn: 'the controller link',
  },
  forwarderStatus: {
    method: 'GET',
    path: '/events/forwarder',
    summary: 'Link state, site and counters (never the key)',
    actsOn: 'the forwarder (reads)',
    output: answer<ForwarderStatus>(),
  },
  waitDelivered: {
    method: 'POST',
    path: '/events/wait-delivered',
    summary: 'Waits until the link is up and nothing waits; 504 with the status otherwise',
    actsOn: 'the forwarder (waits)',
    input: fields({ timeoutMs: integer(0, 30_000).optional() }),
    output: answer<ForwarderStatus>(),
    waitMs: (input: { timeoutMs?: number } | undefined) => input?.timeoutMs ?? DEFAULT_DELIVERY_WAIT_MS,
  },
});
