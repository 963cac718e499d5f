import { createServer } from 'node:net';

/**
 * One loopback address per scenario run (docs/certify-plugin.md, "Isolated runs"): the data
 * endpoint and the web server of each scenario listen on an address of their own, so `{host}`
 * differs from scenario to scenario and a cache keyed by host or address cannot carry an answer
 * over. A certification draws one random block `127.a.b.0/24` (a in 16-254, clear of the
 * 127.0.x addresses tests usually take) and hands out its addresses in turn, moving to the next
 * block after 254; two certifications running at once draw different blocks with high odds, and
 * ports are ephemeral anyway. Each address is bind-checked before it is handed out.
 */
export class ScenarioAddresses {
  private a: number;
  private b: number;
  private next = 1;

  constructor(random: () => number = Math.random) {
    this.a = 16 + Math.floor(random() * 239);
    this.b = Math.floor(random() * 256);
  }

  /** The next free address; rejects when no address of three blocks can be bound. */
  async take(): Promise<string> {
    for (let tries = 0; tries < 3 * 254; tries += 1) {
      if (this.next > 254) {
        this.next = 1;
        this.b = (this.b + 1) % 256;
      }
      const address = `127.${this.a}.${this.b}.${this.next++}`;
      if (await bindable(address)) return address;
    }
    throw new Error('no loopback address of 127/8 can be bound for the scenario');
  }
}

function bindable(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(0, address, () => server.close(() => resolve(true)));
  });
}
