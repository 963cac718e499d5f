/** Where the data endpoint is in its state machine (monitoring-endpoint-and-xmlrpc.md, "States and transitions"). */
export interface EndpointStatus {
  state: 'listening' | 'stopped' | 'inactive';
  /** The port it listens on (the configured one, or the next one after a conflict); `null` unless listening. */
  port: number | null;
  host: string;
  configuredPort: number;
  /**
   * The networks the module has opened the PBX firewall for on the endpoint's port, as
   * `a.b.c.d/n` (MON-STATE-FIREWALL): the valid active monitoring-hosts entries while the endpoint
   * listens, none otherwise. The simulator models the rules the module writes; its own sockets
   * apply only the application-level check (docs/simulator.md, "Firewall").
   */
  firewallOpenFor: string[];
}
