import type { ConsoleConfig } from './main.tsx';

export function FleetView(_: {
  fleet: NonNullable<ConsoleConfig['fleet']>;
  revision: number;
  onError: (e: unknown) => void;
}) {
  return <p>The fleet view comes next.</p>;
}
