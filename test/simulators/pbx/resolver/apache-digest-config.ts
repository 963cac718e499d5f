import { createHash } from 'node:crypto';

/** What the generated httpd configuration serves and protects. */
export interface ApacheDigestSite {
  /** The realm (`AuthName`). */
  realm: string;
  username: string;
  password: string;
  /** `AuthDigestAlgorithm`; Apache's default (MD5) when absent. */
  algorithm?: string;
}

export interface ApacheConfigPaths {
  /** The temp dir: ServerRoot, pid file, error log, runtime files. */
  root: string;
  documentRoot: string;
  userFile: string;
  /** The directory holding `mod_*.so`. */
  moduleDir: string;
  /** `mod_mpm_event.so` is loaded unless the binary has an MPM compiled in. */
  loadMpm: boolean;
  port: number;
  /** `User`/`Group` for the workers when httpd starts as root; Apache refuses root workers. */
  runAs: { user: string; group: string } | null;
}

/** The modules the site needs; unixd, log_config and so are compiled into Debian's binary. */
const MODULES = ['authn_core', 'authn_file', 'authz_core', 'authz_user', 'auth_digest'] as const;

function quoted(value: string): string {
  if (/["\\\r\n]/.test(value)) throw new RangeError(`unsafe value for an httpd directive: ${value}`);
  return `"${value}"`;
}

function token(value: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(value)) throw new RangeError(`not a digest algorithm name: ${value}`);
  return value;
}

/**
 * A line of an `htdigest` password file, `user:realm:MD5(user:realm:password)`, as the
 * `htdigest` tool writes it (the tool only reads passwords from a terminal).
 */
export function htdigestLine(site: ApacheDigestSite): string {
  const ha1 = createHash('md5')
    .update(`${site.username}:${site.realm}:${site.password}`, 'utf8')
    .digest('hex');
  return `${site.username}:${site.realm}:${ha1}\n`;
}

/**
 * A minimal self-contained httpd 2.4 configuration: loopback only, everything under the temp dir,
 * the whole site behind `AuthType Digest` with a file provider. Files are served as
 * `application/json; charset=utf-8` (`ForceType`, so mod_mime and a types file are not needed);
 * the query string is ignored by the static handler, which is what lets one file stand in for a
 * lookup endpoint.
 */
export function apacheDigestConfig(site: ApacheDigestSite, paths: ApacheConfigPaths): string {
  const load = (name: string) => `LoadModule ${name}_module ${quoted(`${paths.moduleDir}/mod_${name}.so`)}`;
  return [
    `ServerRoot ${quoted(paths.root)}`,
    'ServerName 127.0.0.1',
    `Listen 127.0.0.1:${paths.port}`,
    `PidFile ${quoted(`${paths.root}/httpd.pid`)}`,
    `DefaultRuntimeDir ${quoted(paths.root)}`,
    `ErrorLog ${quoted(`${paths.root}/error.log`)}`,
    'LogLevel warn auth_digest:info',
    ...(paths.runAs ? [`User ${paths.runAs.user}`, `Group ${paths.runAs.group}`] : []),
    ...(paths.loadMpm ? [load('mpm_event')] : []),
    ...MODULES.map(load),
    `DocumentRoot ${quoted(paths.documentRoot)}`,
    `<Directory ${quoted(paths.documentRoot)}>`,
    '  Require all granted',
    '</Directory>',
    '<Location "/">',
    '  ForceType "application/json; charset=utf-8"',
    '  AuthType Digest',
    `  AuthName ${quoted(site.realm)}`,
    '  AuthDigestProvider file',
    `  AuthUserFile ${quoted(paths.userFile)}`,
    ...(site.algorithm ? [`  AuthDigestAlgorithm ${token(site.algorithm)}`] : []),
    '  Require valid-user',
    '</Location>',
    '',
  ].join('\n');
}
