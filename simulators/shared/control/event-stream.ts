/**
 * What the effect of a streaming operation (`produces: 'text/event-stream'`) returns: a way to
 * subscribe to its events. The control server calls it once per open request with `send`, writes
 * each event as one Server-Sent Event (`event: <name>`, `data: <JSON>`) and calls the returned
 * function when the client goes away or the plane closes.
 */
export type EventStream<T = unknown> = (send: (name: string, data: T) => void) => () => void;

/** Marks a value as an event stream so the dispatcher can tell it from a JSON answer. */
export interface StreamAnswer {
  readonly kind: 'event-stream';
  readonly subscribe: EventStream;
}

export function streamAnswer(subscribe: EventStream): StreamAnswer {
  return { kind: 'event-stream', subscribe };
}

export function isStreamAnswer(value: unknown): value is StreamAnswer {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'event-stream' &&
    typeof (value as { subscribe?: unknown }).subscribe === 'function'
  );
}
