/**
 * Thrown by fleet support code when the target lacks what a step needs (a fixture, the
 * controller's or a PBX's control plane, the MCP endpoint). `fleetStep` turns it into
 * `world.notVerifiable(reason)`: the report shows the clause as not verifiable, never as failed.
 */
export class FleetNotVerifiable extends Error {
  override name = 'FleetNotVerifiable';
}

export function notVerifiable(reason: string): never {
  throw new FleetNotVerifiable(reason);
}
