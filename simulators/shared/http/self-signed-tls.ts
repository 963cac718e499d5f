import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PEM key and certificate, the shape `startWebServer({ tls })` takes. */
export interface SelfSignedTls {
  key: string;
  cert: string;
}

export interface SelfSignedTlsOptions {
  /** Host names and IP addresses the certificate names (default `localhost`, `127.0.0.1`). */
  hosts?: string[];
  /** Validity in days (default 2: it is made anew at every start). */
  days?: number;
}

/**
 * Makes a self-signed certificate (P-256 key) at start: for serving interface A over HTTPS, since
 * the real system serves it on 443 and clients try TLS (MAINT-REACHABILITY), and for the customer
 * endpoint's HTTPS (RESOLVER-TLS-NO-HOSTNAME: certificates for other names). It runs the `openssl`
 * command (`openssl req -x509`), reading key and certificate from its output, never from a file;
 * Node's crypto can make keys but not X.509 certificates. Clients must trust this certificate
 * explicitly (e.g. undici `connect: { ca: cert }`); it is never a trusted root. Rejects with a
 * clear error when `openssl` is not installed.
 */
export async function createSelfSignedTls(options: SelfSignedTlsOptions = {}): Promise<SelfSignedTls> {
  const hosts = [...new Set(options.hosts ?? ['localhost', '127.0.0.1'])];
  const names = hosts.map((host) => (/^[\d.]+$|:/.test(host) ? `IP:${host}` : `DNS:${host}`)).join(',');
  let stdout: string;
  try {
    // `-keyout -` and no `-out`: key and certificate come on stdout, so the private key never
    // touches the disk (a SIGKILL cannot leave it in the temp folder; issue 20, item 20).
    ({ stdout } = await run(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        '-',
        '-days',
        String(options.days ?? 2),
        '-subj',
        `/CN=${hosts[0] ?? 'localhost'}`,
        '-addext',
        `subjectAltName=${names}`,
      ],
      { timeout: 30_000, encoding: 'utf8' },
    ));
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'the openssl command is not installed'
        : String(error);
    throw new Error(`cannot make the self-signed certificate for HTTPS: ${reason}`);
  }
  const key = pemBlock(stdout, 'PRIVATE KEY');
  const cert = pemBlock(stdout, 'CERTIFICATE');
  if (!key || !cert)
    throw new Error(
      'cannot make the self-signed certificate for HTTPS: openssl printed no key and certificate',
    );
  return { key, cert };
}

function pemBlock(text: string, label: string): string | undefined {
  const match = new RegExp(`-----BEGIN ${label}-----[\\s\\S]*?-----END ${label}-----\\n?`).exec(text);
  return match?.[0];
}
