import { readFileSync, statfsSync } from 'node:fs';
import { cpus, userInfo } from 'node:os';
import type { OsState, PbxState } from '../../state/types.ts';

/**
 * The standard Linux sections of the agent text (MON-TEXT-LINUX-SECTIONS), in the shapes of
 * Checkmk's Linux agent: `<<<cpu>>>` (/proc/loadavg plus CPU count), `<<<mem>>>` (/proc/meminfo),
 * `<<<df>>>` (`df -PTlk` without its header), `<<<uptime>>>` (/proc/uptime),
 * `<<<lnx_if:sep(58)>>>` (/proc/net/dev without its two header lines), `<<<ps_lnx>>>` (a short
 * process list) and, from the host only, `<<<kernel>>>` (epoch and the summary lines of
 * /proc/stat). Which sections appear is the simulator's choice (MON-UNSPEC-LINUX-SECTIONS).
 *
 * `state.os.linuxSectionsSource === 'host'` reads this machine; a piece that cannot be read is
 * left out and nothing throws. `synthetic` renders the numbers of `state.os` deterministically
 * (tests), leaving out a section whose numbers are unknown (`-1`).
 */
export function readLinuxSections(state: PbxState): string {
  const parts = state.os.linuxSectionsSource === 'host' ? hostSections() : syntheticSections(state);
  return parts.join('');
}

function hostSections(): string[] {
  return [
    attempt(() => {
      const loadavg = readFileSync('/proc/loadavg', 'utf8').trim();
      return section('cpu', [`${loadavg} ${cpus().length}`]);
    }),
    attempt(() => section('mem', fileLines('/proc/meminfo'))),
    attempt(hostDf),
    attempt(() => section('uptime', [readFileSync('/proc/uptime', 'utf8').trim()])),
    attempt(() => section('lnx_if:sep(58)', fileLines('/proc/net/dev').slice(2))),
    attempt(hostPs),
    attempt(() => {
      const wanted = /^(cpu\d*|ctxt|btime|processes|procs_running|procs_blocked) /;
      const stat = fileLines('/proc/stat').filter((line) => wanted.test(line));
      return section('kernel', [String(Math.floor(Date.now() / 1000)), ...stat]);
    }),
  ];
}

function hostDf(): string {
  const mount = fileLines('/proc/mounts')
    .map((line) => line.split(' '))
    .filter((fields) => fields[1] === '/')
    .at(-1);
  const stats = statfsSync('/');
  const kib = (blocks: number) => Math.floor((blocks * stats.bsize) / 1024);
  const total = kib(stats.blocks);
  const used = kib(stats.blocks - stats.bfree);
  const available = kib(stats.bavail);
  const capacity = used + available === 0 ? 0 : Math.ceil((used * 100) / (used + available));
  const device = mount?.[0] ?? 'rootfs';
  const type = mount?.[2] ?? 'unknown';
  return section('df', [`${device} ${type} ${total} ${used} ${available} ${capacity}% /`]);
}

function hostPs(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry for the uid (containers): keep `unknown`
  }
  const status = fileLines('/proc/self/status');
  const kb = (key: string) =>
    /(\d+)/.exec(status.find((line) => line.startsWith(`${key}:`)) ?? '')?.[1] ?? '0';
  const usage = process.cpuUsage();
  const command = process.argv.map((arg) => arg.replace(/\s+/g, '_')).join(' ');
  return psSection(Math.floor(Date.now() / 1000), [
    `- ${user} ${kb('VmSize')} ${kb('VmRSS')} ${clock((usage.user + usage.system) / 1e6)} ${clock(process.uptime())} ${process.pid} ${command}`,
  ]);
}

function syntheticSections(state: PbxState): string[] {
  const os = state.os;
  const uptimeMs = state.appliance.uptimeLinuxMs;
  const parts: string[] = [];
  if (known(os.load1, os.load5, os.load15)) {
    parts.push(section('cpu', [`${fixed(os.load1)} ${fixed(os.load5)} ${fixed(os.load15)} 2/312 48211 4`]));
  }
  if (known(os.memTotalBytes, os.memAvailableBytes)) parts.push(section('mem', syntheticMeminfo(os)));
  if (known(os.diskRootTotalBytes, os.diskRootFreeBytes)) {
    const total = Math.floor(os.diskRootTotalBytes / 1024);
    const free = Math.floor(os.diskRootFreeBytes / 1024);
    const used = Math.max(0, total - free);
    const capacity = total === 0 ? 0 : Math.ceil((used * 100) / total);
    parts.push(section('df', [`/dev/sda2 ext4 ${total} ${used} ${free} ${capacity}% /`]));
  }
  if (known(uptimeMs)) {
    const seconds = uptimeMs / 1000;
    parts.push(section('uptime', [`${seconds.toFixed(2)} ${(seconds * 3.6).toFixed(2)}`]));
  }
  parts.push(
    section('lnx_if:sep(58)', [
      '    lo: 81234567  412345    0    0    0     0          0         0 81234567  412345    0    0    0     0       0          0',
      '  eth0: 9876543210 12345678    0    0    0     0          0      1234 8765432109 11234567    0    0    0     0       0          0',
    ]),
  );
  parts.push(
    psSection(1_700_000_000, [
      '- root 225388 9232 00:00:05 14-02:11:00 1 /sbin/init',
      '- pbx 4194304 1048576 12:34:56 14-02:10:12 812 /usr/bin/java -jar /opt/pbx/pbx.jar',
      '- postgres 215000 31000 00:42:10 14-02:10:40 640 /usr/lib/postgresql/15/bin/postgres',
    ]),
  );
  return parts;
}

function syntheticMeminfo(os: OsState): string[] {
  const kb = (bytes: number) => Math.floor(bytes / 1024);
  const total = kb(os.memTotalBytes);
  const available = kb(os.memAvailableBytes);
  const line = (key: string, value: number) => `${`${key}:`.padEnd(16)}${String(value).padStart(8)} kB`;
  return [
    line('MemTotal', total),
    line('MemFree', Math.floor(available / 2)),
    line('MemAvailable', available),
    line('Buffers', Math.floor(available / 16)),
    line('Cached', Math.floor(available / 3)),
    line('SwapTotal', 2_097_148),
    line('SwapFree', 2_097_148),
  ];
}

function psSection(epochSeconds: number, processes: string[]): string {
  return section('ps_lnx', [
    '[time]',
    String(epochSeconds),
    '[processes]',
    '[header] CGROUP USER VSZ RSS TIME ELAPSED PID COMMAND',
    ...processes,
  ]);
}

function section(header: string, lines: string[]): string {
  return `<<<${header}>>>\n${lines.map((line) => `${line}\n`).join('')}`;
}

function fileLines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('<<<'));
}

/** A section that cannot be read is absent (never throws). */
function attempt(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}

function known(...values: number[]): boolean {
  return values.every((v) => Number.isFinite(v) && v >= 0);
}

function fixed(value: number): string {
  return value.toFixed(2);
}

function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}
