import {
  isPlainObject,
  requireBoolean,
  requireInteger,
  requireString,
} from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import type { ControlRoute } from '../../shared/http/control-route.ts';
import type { PbxStore } from '../state/store.ts';
import { parseAttentionEvent } from './attention-event.ts';
import type { AttentionForwarder } from './attention-forwarder.ts';
import type { ControllerSettings } from './controller-link.ts';

/**
 * The PBX control-plane routes of attention events, for `createControlServer(…, { extraRoutes })`
 * (docs/fleet-controller.md, "PBX control plane"):
 * - `POST /events/attention` an `AttentionEvent` → `{outcome}` (`sent`, `buffered`, `withheld`,
 *   `not-released`);
 * - `PUT /events/partner` `{released}` → 204 (EVENT-UNSPEC-PARTNER-RELEASE);
 * - `PUT /events/controller` `{ingest, siteId, key}` or `null` → 204, (re)connects or disconnects;
 * - `POST /events/link/cut`, `POST /events/link/restore` → 204 (PBX-side cut of the link);
 * - `GET /events/forwarder` → link state, site and counters (never the key);
 * - `POST /events/wait-delivered` `{timeoutMs?}` → 200 with the status once the link is up and
 *   nothing waits, 504 with the status when it does not happen in time (≤ 30 s real time).
 */
export function attentionControlRoutes(forwarder: AttentionForwarder, store: PbxStore): ControlRoute[] {
  return [
    {
      method: 'POST',
      path: '/events/attention',
      handle: async ({ body }) => ({
        status: 200,
        body: { outcome: forwarder.raise(parseAttentionEvent(body)) },
      }),
    },
    {
      method: 'PUT',
      path: '/events/partner',
      handle: async ({ body }) => {
        const released = requireBoolean(isPlainObject(body) ? body['released'] : undefined, 'released');
        store.update((s) => {
          s.maintenance.partnerReleased = released;
        });
        return { status: 204 };
      },
    },
    {
      method: 'PUT',
      path: '/events/controller',
      handle: async ({ body }) => {
        forwarder.configure(body === undefined || body === null ? null : parseSettings(body));
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      path: '/events/link/cut',
      handle: async () => {
        forwarder.cut();
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      path: '/events/link/restore',
      handle: async () => {
        forwarder.restore();
        return { status: 204 };
      },
    },
    {
      method: 'GET',
      path: '/events/forwarder',
      handle: async () => ({ status: 200, body: forwarder.status() }),
    },
    {
      method: 'POST',
      path: '/events/wait-delivered',
      handle: async ({ body }) => {
        const raw = isPlainObject(body) ? body['timeoutMs'] : undefined;
        const timeoutMs = raw === undefined ? 10_000 : requireInteger(raw, 'timeoutMs', 0, 30_000);
        try {
          await forwarder.whenDelivered(timeoutMs);
          return { status: 200, body: forwarder.status() };
        } catch {
          return { status: 504, body: forwarder.status() };
        }
      },
    },
  ];
}

function parseSettings(body: unknown): ControllerSettings {
  if (!isPlainObject(body)) throw new ControlInputError('the controller settings must be an object or null');
  const ingest = requireString(body['ingest'], 'ingest', 500);
  if (!/^tcp:\/\/[^/]+:\d+\/?$/.test(ingest)) throw new ControlInputError('ingest must be tcp://host:port');
  return {
    ingest,
    siteId: requireString(body['siteId'], 'siteId', 200),
    key: requireString(body['key'], 'key', 500),
  };
}
