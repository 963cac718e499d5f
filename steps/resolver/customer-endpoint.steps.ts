/**
 * Reference customer endpoints (issue 5, section 3): the recording endpoints the PBX under test
 * is pointed at, started in this process on the target's `endpointHost`, configured per scenario.
 */
import { Given } from '@cucumber/cucumber';
import type {
  Compression,
  DigestAlgorithm,
  EndpointBehaviour,
} from '../../simulators/customer-endpoint/index.ts';
import { openEmbeddedTarget } from '../support/embedded-target.ts';
import type { PbxWorld } from '../support/world.ts';
import { DEFAULT_BODY } from './support/provider-draft.ts';
import { type EndpointTransport, MAIN } from './support/resolver-scenario.ts';
import { resolverScenario } from './support/resolver-scenario-of.ts';

/** Host name in certificates that must not match the endpoint's address (RESOLVER-TLS-NO-HOSTNAME). */
const OTHER_HOST = 'another-host.invalid';

const TLS_VERSIONS: Record<string, 'TLSv1.2' | 'TLSv1.3'> = { 'TLS 1.2': 'TLSv1.2', 'TLS 1.3': 'TLSv1.3' };

async function startEndpoint(world: PbxWorld, name: string, transport?: EndpointTransport) {
  const started = await resolverScenario(world).startEndpoint(name, transport);
  if (typeof started === 'string') return world.notVerifiable(started);
  return undefined;
}

/** Changes the answer every path without its own route gets. */
function answer(world: PbxWorld, name: string, change: (b: EndpointBehaviour) => EndpointBehaviour): void {
  const { control } = resolverScenario(world).endpoint(name).handle;
  const config = control.config();
  control.configure({ ...config, fallback: change({ ...config.fallback }) });
}

function setRoute(world: PbxWorld, name: string, path: string, behaviour: EndpointBehaviour): void {
  resolverScenario(world).endpoint(name).handle.control.setRoute(path, behaviour);
}

Given('a customer endpoint', function (this: PbxWorld) {
  return startEndpoint(this, MAIN);
});

Given('a customer endpoint {string}', function (this: PbxWorld, name: string) {
  return startEndpoint(this, name);
});

Given(
  'a customer endpoint over HTTPS that offers only TLS {float}',
  function (this: PbxWorld, version: number) {
    const tls = TLS_VERSIONS[`TLS ${version.toFixed(1)}`];
    if (!tls) throw new Error(`TLS ${version} is not a version the scenarios offer`);
    const target = resolverScenario(this).target();
    if (typeof target === 'string') return this.notVerifiable(target);
    return startEndpoint(this, MAIN, {
      tls: { hosts: [target.endpointHost, 'localhost'] },
      tlsVersions: { min: tls, max: tls },
    });
  },
);

Given(
  'a customer endpoint over HTTPS with a self-signed certificate the PBX does not trust',
  function (this: PbxWorld) {
    const target = resolverScenario(this).target();
    if (typeof target === 'string') return this.notVerifiable(target);
    // A fresh key pair made now: no trust store can hold it.
    return startEndpoint(this, MAIN, { tls: { hosts: [target.endpointHost, 'localhost'] } });
  },
);

/**
 * An endpoint whose certificate the PBX runtime's trust store holds. The embedded simulator is
 * started anew with the certificate in its runtime's trust store (so this must be the scenario's
 * first PBX step); a remote PBX must already trust the certificate of its target file.
 */
async function trustedEndpoint(world: PbxWorld, namesOtherHost: boolean): Promise<'skipped' | undefined> {
  const scenario = resolverScenario(world);
  const target = scenario.target();
  if (typeof target === 'string') return world.notVerifiable(target);
  if (target.embedded) {
    if (scenario.touchedPbx)
      throw new Error('the trusted endpoint must be set up before the PBX is configured');
    const started = await scenario.startEndpoint(MAIN, {
      tls: { hosts: namesOtherHost ? [OTHER_HOST] : [target.endpointHost, 'localhost'] },
    });
    if (typeof started === 'string') return world.notVerifiable(started);
    const certificate = started.handle.certificate;
    if (!certificate) throw new Error('the HTTPS endpoint reports no certificate');
    world.replaceTarget(await openEmbeddedTarget({ resolverTrustedCa: [certificate] }));
    return undefined;
  }
  const pair = namesOtherHost ? target.trusted?.otherHost : target.trusted?.matching;
  if (!pair)
    return world.notVerifiable(
      `the target file names no ${namesOtherHost ? 'resolver.trustedCertificateOtherHost' : 'resolver.trustedCertificate'}: a certificate the PBX runtime trusts${namesOtherHost ? ' whose names do not include endpointHost' : ''}`,
    );
  return startEndpoint(world, MAIN, { tls: pair });
}

Given("a customer endpoint over HTTPS whose certificate the PBX's runtime trusts", function (this: PbxWorld) {
  return trustedEndpoint(this, false);
});

Given(
  "a customer endpoint over HTTPS whose certificate the PBX's runtime trusts but names another host",
  function (this: PbxWorld) {
    return trustedEndpoint(this, true);
  },
);

Given('{endpoint} answers with the body', function (this: PbxWorld, name: string, body: string) {
  answer(this, name, (b) => ({ ...b, body }));
});

Given(
  '{endpoint} answers with the content type {string} and the body',
  function (this: PbxWorld, name: string, contentType: string, body: string) {
    answer(this, name, (b) => ({ ...b, contentType, body }));
  },
);

Given(
  '{endpoint} answers without a Content-Type with the body',
  function (this: PbxWorld, name: string, body: string) {
    answer(this, name, (b) => ({ ...b, contentType: null, body }));
  },
);

Given(
  '{endpoint} answers with status {int} and the body',
  function (this: PbxWorld, name: string, status: number, body: string) {
    answer(this, name, (b) => ({ ...b, status, body }));
  },
);

Given(
  '{endpoint} answers with status {int} and the default record',
  function (this: PbxWorld, name: string, status: number) {
    answer(this, name, (b) => ({ ...b, status, body: DEFAULT_BODY }));
  },
);

Given(
  '{endpoint} answers {string} encoded as {word} with the content type {string}',
  function (this: PbxWorld, name: string, text: string, charset: string, contentType: string) {
    const encodings: Record<string, BufferEncoding> = {
      'utf-8': 'utf8',
      'iso-8859-1': 'latin1',
      'utf-16le': 'utf16le',
    };
    const encoding = encodings[charset];
    if (!encoding) throw new Error(`no encoder for ${charset}`);
    answer(this, name, (b) => ({ ...b, contentType, body: new Uint8Array(Buffer.from(text, encoding)) }));
  },
);

/**
 * An answer of exact bytes: ASCII text with one byte in place of a marker, e.g. `name=A_B` with
 * the byte `0x80` in place of `_` (a byte a charset maps differently from another one).
 */
Given(
  '{endpoint} answers the ASCII text {string} with the byte {word} in place of {string} and the content type {string}',
  function (this: PbxWorld, name: string, text: string, byte: string, marker: string, contentType: string) {
    if (!/^0x[0-9a-f]{2}$/i.test(byte)) throw new Error(`a byte is written 0x00 to 0xFF, got ${byte}`);
    if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`the text must be printable ASCII: ${text}`);
    const at = text.indexOf(marker);
    if (marker === '' || at === -1 || text.indexOf(marker, at + 1) !== -1)
      throw new Error(`"${marker}" must occur exactly once in "${text}"`);
    const body = Buffer.concat([
      Buffer.from(text.slice(0, at), 'latin1'),
      Buffer.from([Number.parseInt(byte.slice(2), 16)]),
      Buffer.from(text.slice(at + marker.length), 'latin1'),
    ]);
    answer(this, name, (b) => ({ ...b, contentType, body: new Uint8Array(body) }));
  },
);

Given(
  '{endpoint} compresses its answers with {string}',
  function (this: PbxWorld, name: string, coding: string) {
    if (!['gzip', 'deflate', 'br'].includes(coding)) throw new Error(`unknown content coding ${coding}`);
    answer(this, name, (b) => ({ ...b, compression: coding as Compression }));
  },
);

Given('{endpoint} answers only after {int} ms', function (this: PbxWorld, name: string, delayMs: number) {
  answer(this, name, (b) => ({ ...b, delayMs }));
});

Given(
  '{endpoint} answers the path {string} with a {int} redirect to {string}',
  function (this: PbxWorld, name: string, path: string, status: number, location: string) {
    setRoute(this, name, path, { redirect: { location, status } });
  },
);

Given(
  '{endpoint} answers the path {string} with a {int} redirect to the path {string} of {endpoint}',
  function (this: PbxWorld, name: string, path: string, status: number, targetPath: string, other: string) {
    const location = `${resolverScenario(this).endpoint(other).base}${targetPath}`;
    setRoute(this, name, path, { redirect: { location, status } });
  },
);

Given(
  '{endpoint} requires Basic authentication as {string} with the password {string}',
  function (this: PbxWorld, name: string, username: string, password: string) {
    answer(this, name, (b) => ({ ...b, auth: { scheme: 'Basic', username, password } }));
  },
);

Given(
  '{endpoint} requires Digest authentication with the challenges {names} as {string} with the password {string}',
  function (this: PbxWorld, name: string, algorithms: string[], username: string, password: string) {
    answer(this, name, (b) => ({
      ...b,
      auth: {
        scheme: 'Digest',
        username,
        password,
        algorithms: algorithms as DigestAlgorithm[],
        qop: 'auth',
      },
    }));
  },
);

Given(
  '{endpoint} requires the Bearer token {string}',
  function (this: PbxWorld, name: string, token: string) {
    answer(this, name, (b) => ({ ...b, auth: { scheme: 'Bearer', token } }));
  },
);
