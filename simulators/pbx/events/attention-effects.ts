import { ControlRefusal } from '../../shared/control/control-error.ts';
import type { Effects } from '../../shared/control/control-operation.ts';
import { isPlainObject, requireString } from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import type { PbxStore } from '../state/store.ts';
import { parseAttentionEvent } from './attention-event.ts';
import type { AttentionForwarder } from './attention-forwarder.ts';
import { type ATTENTION_OPERATIONS, DEFAULT_DELIVERY_WAIT_MS } from './attention-operations.ts';
import type { ControllerSettings } from './controller-link.ts';

/** What each operation of `ATTENTION_OPERATIONS` does to the forwarder and the PBX state. */
export function attentionEffects(
  forwarder: AttentionForwarder,
  store: PbxStore,
): Effects<typeof ATTENTION_OPERATIONS> {
  return {
    raiseAttentionEvent: (event) => ({ outcome: forwarder.raise(parseAttentionEvent(event)) }),
    setPartnerReleased({ released }) {
      store.update((s) => {
        s.maintenance.partnerReleased = released;
      });
    },
    configureController(settings) {
      forwarder.configure(settings === undefined || settings === null ? null : parseSettings(settings));
    },
    cutControllerLink: () => forwarder.cut(),
    restoreControllerLink: () => forwarder.restore(),
    forwarderStatus: () => forwarder.status(),
    async waitDelivered({ timeoutMs }) {
      try {
        await forwarder.whenDelivered(timeoutMs ?? DEFAULT_DELIVERY_WAIT_MS);
        return forwarder.status();
      } catch {
        throw new ControlRefusal(504, 'timeout', 'not everything was delivered in time', forwarder.status());
      }
    },
  };
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
