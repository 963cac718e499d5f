/**
 * Bounds of the data endpoint. The spec shows no connection or rate limits (MON-UNSPEC-LIMITS);
 * these are the simulator's choices, listed in docs/simulator.md ("Monitoring data endpoint").
 * They keep bad input from stalling or exhausting the server; tests shorten the timeouts.
 */
export interface EndpointLimits {
  /** Simultaneous connections; one more is closed at once without a byte. */
  maxConnections: number;
  /**
   * Simultaneous connections from one peer address, so that one address cannot hold the slots
   * other monitoring servers need (as the Checkmk agent controller limits per peer; issue 12,
   * defect 4). One more from that address is closed at once without a byte. A connection counts
   * from its acceptance until its socket has closed.
   */
  maxConnectionsPerAddress: number;
  /** Bytes of an HTTP request head (request line + headers); a larger head gets `400`. */
  maxHeadBytes: number;
  /**
   * Time from accepting a connection until its request head must be complete, counted from the
   * connection, not per byte, so a client trickling one byte at a time cannot hold it longer.
   * A head still incomplete then gets `408`.
   */
  headTimeoutMs: number;
  /**
   * Time from queueing the answer until the connection must be closed. A client that does not
   * read its answer (write backpressure) or never closes its side is dropped after it.
   */
  answerTimeoutMs: number;
}

export const DEFAULT_ENDPOINT_LIMITS: Readonly<EndpointLimits> = Object.freeze({
  maxConnections: 512,
  maxConnectionsPerAddress: 32,
  maxHeadBytes: 8192,
  headTimeoutMs: 5000,
  answerTimeoutMs: 10_000,
});
