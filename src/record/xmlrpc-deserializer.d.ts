/** The `xmlrpc` package's response deserializer (no types ship for its lib/ files). */
declare module 'xmlrpc/lib/deserializer.js' {
  import type { Readable } from 'node:stream';
  export default class Deserializer {
    constructor(encoding?: string);
    deserializeMethodResponse(stream: Readable, callback: (error: unknown, value: unknown) => void): void;
  }
}
