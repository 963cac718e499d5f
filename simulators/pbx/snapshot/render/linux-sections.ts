import { readFileSync, statfsSync } from 'node:fs';
import { cpus } from 'node:os';
import type { OsState, PbxState } from '../../state/types.ts';

/**
 * The standard Linux sections of the agent text (MON-TEXT-LINUX-SECTIONS), in the shapes of
 * Checkmk's Linux agent: `<<<cpu>>>` (/proc/loadavg plus CPU count), `<<<mem>>>` (/proc/meminfo),
 * `<<<df>>>` (`df -PTlk` without its header), `<<<uptime>>>` (/proc/uptime),
 * `<<<lnx_if:sep(58)>>>` (/proc/net/dev without its two header lines), `<<<ps_lnx>>>` (a short
 * process list) and, from the host only, `<<<kernel>>>` (epoch and the summary lines of
 * /proc/stat). Which sections appear is the simulator's choice (MON-UNSPEC-LINUX-SECTIONS).
 *
 * `synthetic` (the default) renders them from the PBX state, deterministically per scenario: the
 * numbers of `state.os`, the Linux uptime, and a process list of a PBX appliance whose Java
 * process shows the scenario's heap; a section whose numbers are unknown (`-1`) is left out.
 * `state.os.linuxSectionsSource === 'host'` is the documented opt-in to this machine's load,
 * memory, root file system, uptime, interfaces and kernel counters; a piece that cannot be read is
 * left out and nothing throws. The process list comes from the PBX state in both modes: a
 * simulator never publishes its host's process table, whose command lines name ports and may
 * carry secrets (issue 12, defect 6).
 */
export function readLinuxSections(state: PbxState): string {
  const parts = state.os.linuxSectionsSource === 'host' ? hostSections(state) : syntheticSections(state);
  return parts.join('');
}

function hostSections(state: PbxState): string[] {
  return [
    attempt(() => {
      const loadavg = readFileSync('/proc/loadavg', 'utf8').trim();
      return section('cpu', [`${loadavg} ${cpus().length}`]);
    }),
    attempt(() => section('mem', fileLines('/proc/meminfo'))),
    attempt(hostDf),
    attempt(() => section('uptime', [readFileSync('/proc/uptime', 'utf8').trim()])),
    attempt(() => section('lnx_if:sep(58)', fileLines('/proc/net/dev').slice(2))),
    statePs(state),
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
  parts.push(statePs(state));
  return parts;
}

/**
 * `<<<ps_lnx>>>` of a PBX appliance, from the state: the processes a PBX runs, their start at boot
 * (ELAPSED = the Linux uptime), the PBX's Java process with the scenario's heap and non-heap use as
 * its RSS and its maximum heap in the command line, PostgreSQL with one backend per database
 * connection. `[time]` is a fixed epoch so the text depends on the state alone.
 */
function statePs(state: PbxState): string {
  const uptimeS = Math.max(0, Math.floor(state.appliance.uptimeLinuxMs / 1000));
  const kib = (bytes: number) => Math.max(0, Math.floor(bytes / 1024));
  const java = state.java;
  const javaRss = kib(Math.max(0, java.heapUsed) + Math.max(0, java.nonHeapUsed)) + 65_536;
  const javaVsz = kib(Math.max(0, java.heapMax)) + javaRss + 1_048_576;
  const heapMiB = Math.max(64, Math.floor(Math.max(0, java.maxMemory) / 1024 / 1024));
  const backends = Math.max(0, Math.min(state.database.connections.total, 12));
  const cpu = (share: number) => clock(uptimeS * share);
  const started = (offset: number) => elapsed(Math.max(0, uptimeS - offset));
  return psSection(1_700_000_000, [
    `- root 168972 12044 ${cpu(0.0004)} ${started(0)} 1 /sbin/init`,
    `- root 48120 15220 ${cpu(0.0002)} ${started(2)} 312 /lib/systemd/systemd-journald`,
    `- root 15432 9010 ${cpu(0.00001)} ${started(6)} 598 sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups`,
    `- postgres 215000 31000 ${cpu(0.002)} ${started(9)} 640 /usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main`,
    ...Array.from(
      { length: backends },
      (_, i) =>
        `- postgres 217500 ${14_000 + i * 512} ${cpu(0.0001)} ${started(30 + i)} ${700 + i} postgres: pbx pbx 127.0.0.1 idle`,
    ),
    `- pbx ${javaVsz} ${javaRss} ${cpu(0.03)} ${started(14)} 812 /usr/bin/java -Xmx${heapMiB}m -jar /opt/pbx/pbx.jar`,
    `- www-data 55612 8120 ${cpu(0.0003)} ${started(16)} 860 nginx: worker process`,
  ]);
}

/** `ps -o etime` form: `[[DD-]hh:]mm:ss`, here always `DD-hh:mm:ss`. */
function elapsed(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  return `${days}-${clock(seconds % 86_400)}`;
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
