/**
 * The page's one way to the control plane: same origin, JSON, the bearer token (beyond loopback)
 * on every call once the user has given it. A change feed is read as Server-Sent Events over
 * fetch, so it carries the token in a header like every other call (EventSource cannot).
 */
const TOKEN_KEY = 'pbx-console-token';

let token: string | null = sessionStorage.getItem(TOKEN_KEY);

export function setToken(value: string): void {
  token = value;
  sessionStorage.setItem(TOKEN_KEY, value);
}

export function hasToken(): boolean {
  return token !== null;
}

/** The control plane asked for its token (401): the page asks the user once. */
export class TokenNeeded extends Error {}

/** A refused call: the control plane's `error` code and one-line message. */
export class CallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  return { ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra };
}

export async function call<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  extra: Record<string, string> = {},
): Promise<T> {
  const init: RequestInit = { method, headers: headers(extra) };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = headers({ ...extra, 'content-type': 'application/json' });
  }
  const response = await fetch(path, init);
  if (response.status === 401) throw new TokenNeeded('the control plane needs its token');
  const text = await response.text();
  const parsed = text === '' ? undefined : safeJson(text);
  if (!response.ok) {
    const error = parsed as { error?: string; message?: string } | undefined;
    throw new CallError(response.status, error?.error ?? 'error', error?.message ?? `${response.status}`);
  }
  return parsed as T;
}

/** A GET whose answer is text, not JSON. */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Follows a Server-Sent Events stream at `path` until `signal` aborts: calls `onEvent` with each
 * event's name, `onOpen` each time the stream is (re)opened. A dropped stream is opened again
 * after a second (the server may have restarted); this is a reconnect, not a poll.
 */
export function follow(
  path: string,
  onEvent: (name: string, data: unknown) => void,
  onOpen: () => void,
  signal: AbortSignal,
): void {
  const run = async () => {
    while (!signal.aborted) {
      try {
        const response = await fetch(path, { headers: headers({ accept: 'text/event-stream' }), signal });
        if (!response.ok || !response.body) throw new Error(`event stream ${response.status}`);
        onOpen();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            dispatch(buffer.slice(0, end), onEvent);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {
        if (signal.aborted) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  void run();
}

function dispatch(block: string, onEvent: (name: string, data: unknown) => void): void {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  if (data.length > 0) onEvent(name, safeJson(data.join('\n')));
}
