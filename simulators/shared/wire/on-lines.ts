import type { LineReader } from './ingest-protocol.ts';

/** What `onLines` reads from: a TCP socket, an in-process pipe end or a mux channel. */
interface LineSource {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  destroy(): unknown;
  /** A source that has its lines already (a mux channel) hands them over itself, each bounded. */
  takeLines?(handle: (line: string) => void): void;
}

/**
 * Reads `socket` line by line through `reader` and hands each line to `handle`, in order. A line
 * past the reader's bound destroys the socket, and no line of that chunk is handled: bad input
 * never grows a buffer unbounded (EVENT-UNSPEC-TRANSPORT). One reading for the ingest listener,
 * the PBX's link and the shard's multiplexed link.
 */
export function onLines(socket: LineSource, reader: LineReader, handle: (line: string) => void): void {
  if (socket.takeLines) {
    socket.takeLines(handle);
    return;
  }
  socket.on('data', (chunk: Buffer) => {
    let lines: string[];
    try {
      lines = reader.push(chunk);
    } catch {
      socket.destroy();
      return;
    }
    for (const line of lines) handle(line);
  });
}
