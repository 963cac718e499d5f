import { writeFileSync } from 'node:fs';
import { threadCpuMs } from './thread-cpu.ts';

/**
 * Loaded into the suite bench's `verify` child (`--import`, suite.bench.ts): at exit it writes the
 * CPU time the main thread used (the features' thread: the scenarios, the start-up and the report)
 * and the whole process's (every thread: the embedded simulator's thread, tsx's loader threads, GC
 * and libuv's pool; the certification process is a child and not in it) to the file `BENCH_SUITE_CPU_FILE` names, as JSON in ms.
 * CPU time moves far less with the machine's load than the wall time does.
 */
const file = process.env['BENCH_SUITE_CPU_FILE'];
if (file)
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ mainThreadMs: threadCpuMs(), processMs: (user + system) / 1000 }));
  });
