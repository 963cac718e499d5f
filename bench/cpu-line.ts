import { fmt } from './load.ts';
import { cpuPerRequestUs, type WorkerLoadResult } from './load-worker.ts';

/**
 * `name: server 41.2 µs CPU/request (0.83 of a core), client 25.0 µs (0.99)`: where the time of a
 * load run went. A side near 1.00 of a core is the one that bounds the rate.
 */
export function cpuLine(name: string, result: WorkerLoadResult): string {
  const side = (which: 'server' | 'client') => {
    const perRequest = cpuPerRequestUs(result, which);
    const ms = which === 'server' ? result.serverCpuMs : result.clientCpuMs;
    if (perRequest === null || ms === null) return `${which} n/a`;
    return `${which} ${fmt(perRequest, 1)} µs CPU/request (${fmt(ms / 1000 / result.seconds, 2)} of a core)`;
  };
  return `${name.padEnd(10)} ${side('server')}, ${side('client')}`;
}
