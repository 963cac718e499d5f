import { connect } from 'node:net';

/** Whether a TCP connection could be opened; `reason` says why not (e.g. `ECONNREFUSED`). */
export type ProbeOutcome = { reachable: true } | { reachable: false; reason: string };

/** Tries to open a TCP connection; never rejects. Injected into {@link preflight} so tests need no network. */
export type Probe = (host: string, port: number, timeoutMs: number) => Promise<ProbeOutcome>;

/**
 * Opens a TCP connection to `host:port` and closes it at once; no bytes are sent. The timeout is
 * real time (the harness's own timeouts never follow a target's virtual clock).
 */
export const tcpProbe: Probe = (host, port, timeoutMs) =>
  new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (outcome: ProbeOutcome): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ reachable: false, reason: `no answer within ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    socket.once('connect', () => finish({ reachable: true }));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      finish({ reachable: false, reason: error.code ?? error.message }),
    );
  });
