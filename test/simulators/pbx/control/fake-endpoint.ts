import type { EndpointStatus } from '../../../../simulators/pbx/control/control-api.ts';
import type { ControllableEndpoint } from '../../../../simulators/pbx/control/state-effects.ts';
import type { PbxStore } from '../../../../simulators/pbx/state/store.ts';

/**
 * A stand-in for the data endpoint in unit tests of the control: it derives its status from the
 * store (listening while tile and licence allow) and records every `apply()` call.
 */
export class FakeEndpoint implements ControllableEndpoint {
  readonly applies: { restart?: boolean }[] = [];
  /** When set, the next `apply()` rejects with it (a listen failure). */
  failNext: Error | undefined;

  constructor(private readonly store: PbxStore) {}

  async apply(options: { restart?: boolean } = {}): Promise<EndpointStatus> {
    this.applies.push(options);
    const failure = this.failNext;
    if (failure) {
      this.failNext = undefined;
      throw failure;
    }
    return this.status();
  }

  status(): EndpointStatus {
    const state = this.store.read();
    const running = state.monitoring.tileOn && state.licence.valid;
    return {
      state: running ? 'listening' : 'stopped',
      port: running ? state.monitoring.port : null,
      host: state.monitoring.host,
      configuredPort: state.monitoring.port,
      firewallOpenFor: [],
    };
  }

  async close(): Promise<void> {}
}
