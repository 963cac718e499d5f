import { readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc` times: 100 on every Linux this bench runs on (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) the calling thread has used, in ms, from `/proc/thread-self/stat`;
 * `null` where there is no such file (not Linux). Resolution one tick (10 ms), so it suits runs of
 * a second or more. Read on a worker thread it gives that thread's time.
 */
export function threadCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}
