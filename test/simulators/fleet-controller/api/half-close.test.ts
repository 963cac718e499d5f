import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { start } from '../../../../simulators/fleet-controller/index.ts';
import { FAST_SCRYPT } from '../fleet-test-kit.ts';

/** Sends `request`, half-closes (SHUT_WR) at once, and collects everything until the server closes. */
function sendAndHalfClose(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

// Issue 12, defect 3: Basic credentials that go through the password hash (here an unknown
// account `x` with password `y`) took long enough for the half-close to discard the answer.
test('fleet REST: a client that half-closes after its request still gets the 401', async () => {
  const fleet = await start({ scryptCost: FAST_SCRYPT });
  try {
    for (const authorization of [
      'Basic eDp5',
      `Basic ${Buffer.from('anna.admin@nordlicht.example:wrong').toString('base64')}`,
    ]) {
      const answer = await sendAndHalfClose(
        fleet.urls.api,
        `GET /api/v1/sites HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\n\r\n`,
      );
      assert.match(answer, /^HTTP\/1\.1 401 /, `${authorization}: ${JSON.stringify(answer)}`);
    }
  } finally {
    await fleet.close();
  }
});
