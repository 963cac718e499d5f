import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { start as startController } from '../../simulators/fleet-controller/index.ts';
import { start as startPbx } from '../../simulators/pbx/index.ts';
import { durationClock, type VirtualClock } from '../../simulators/shared/index.ts';
import { freePortBelowEphemeral } from './port-holder.ts';
import {
  SIMULATOR_THREAD,
  type SimulatorAnswer,
  type SimulatorRequest,
  type ThreadControllerOptions,
  type ThreadPbxOptions,
} from './simulator-thread.ts';

/** How often a PBX is started again when its data endpoint's port was taken in between. */
const PORT_ATTEMPTS = 3;

interface Started {
  handle: number;
  urls: unknown;
}

/**
 * The simulator thread's entry (issue 31 §1, simulator-thread.ts): starts the PBXs and fleet
 * controllers it is asked for, advances a PBX's duration clock, closes them, and answers each
 * request with its result or its error. A request marked `spare` is answered with a simulator
 * started for an earlier request with the same options, when one is ready, and another is started
 * for the next such request once the answer is out: so a scenario's fresh PBX (never handed to
 * any other scenario) is started while the scenario before it runs. Cucumber loads every file
 * under steps/ as support code on the main thread as well: there this module does nothing.
 */
if (!isMainThread && workerData === SIMULATOR_THREAD && parentPort) {
  const port = parentPort;
  const started = new Map<number, { close(): Promise<void>; clock?: VirtualClock }>();
  const spares = new Map<string, Promise<Started>>();
  let nextHandle = 1;
  /** Set by `close-all`: no spare is started any more. */
  let closing = false;

  const keep = (close: () => Promise<void>, clock?: VirtualClock): number => {
    const handle = nextHandle++;
    started.set(handle, { close, ...(clock ? { clock } : {}) });
    return handle;
  };

  const startOnePbx = async (options: ThreadPbxOptions): Promise<Started> => {
    const { durationClock: withClock, monitoringPort, ...rest } = options;
    for (let attempt = 1; ; attempt++) {
      const port =
        monitoringPort === 'below-ephemeral'
          ? ((await freePortBelowEphemeral(rest.host ?? '127.0.0.1')) ?? 0)
          : monitoringPort;
      const clock = withClock ? durationClock() : undefined;
      const pbx = await startPbx({
        ...rest,
        ...(port === undefined ? {} : { monitoringPort: port }),
        ...(clock ? { durationClock: clock } : {}),
      });
      const listening = pbx.urls.monitoring && Number(/:(\d+)$/.exec(pbx.urls.monitoring)?.[1]);
      const close = async () => {
        await pbx.close();
        clock?.dispose();
      };
      if (!port || listening === port || attempt >= PORT_ATTEMPTS)
        return { handle: keep(close, clock), urls: pbx.urls };
      // Another program took the port between the check and the listen (the simulator fell
      // back to the next one): start afresh on another.
      await close();
    }
  };

  const startOneController = async (options: ThreadControllerOptions): Promise<Started> => {
    const controller = await startController(options);
    return { handle: keep(() => controller.close()), urls: controller.urls };
  };

  /** The spare for `key` when one is ready (else a new start), and the next spare after the answer. */
  const fromSpares = async (key: string, start: () => Promise<Started>): Promise<Started> => {
    const spare = spares.get(key);
    spares.delete(key);
    const taken = spare ? await spare.catch(() => start()) : await start();
    setImmediate(() => {
      if (spares.has(key) || closing) return;
      const next = start();
      next.catch(() => {});
      spares.set(key, next);
    });
    return taken;
  };

  const run = async (request: SimulatorRequest): Promise<unknown> => {
    switch (request.op) {
      case 'start-pbx': {
        const start = () => startOnePbx(request.options);
        return request.spare ? fromSpares(`pbx ${JSON.stringify(request.options)}`, start) : start();
      }
      case 'start-controller': {
        const start = () => startOneController(request.options);
        return request.spare ? fromSpares(`controller ${JSON.stringify(request.options)}`, start) : start();
      }
      case 'advance': {
        const clock = started.get(request.handle)?.clock;
        if (!clock) throw new Error(`no duration clock for simulator ${request.handle}`);
        clock.advance(request.ms);
        return null;
      }
      case 'close': {
        const simulator = started.get(request.handle);
        started.delete(request.handle);
        await simulator?.close();
        return null;
      }
      case 'close-all': {
        closing = true;
        const waiting = [...spares.values()];
        spares.clear();
        await Promise.allSettled(waiting);
        const left = [...started.values()];
        started.clear();
        await Promise.all(left.map((simulator) => simulator.close()));
        return null;
      }
    }
  };

  port.on('message', (request: SimulatorRequest) => {
    run(request).then(
      (value) => port.postMessage({ id: request.id, value } satisfies SimulatorAnswer),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          error: {
            message: error instanceof Error ? error.message : String(error),
            stack: error instanceof Error ? (error.stack ?? '') : '',
          },
        } satisfies SimulatorAnswer),
    );
  });
}
