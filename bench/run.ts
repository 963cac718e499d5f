import { BenchUsageError } from './bench-usage.ts';
import { benchCertify } from './certify.bench.ts';
import { benchConsole } from './console.bench.ts';
import { benchFleet } from './fleet.bench.ts';
import { benchFleetScale } from './fleet-scale.bench.ts';
import { benchFuzz } from './fuzz.bench.ts';
import { benchXmlRpcLoad } from './fuzz-xmlrpc-load.ts';
import { benchMaintenance } from './maintenance.bench.ts';
import { benchMonitoring } from './monitoring.bench.ts';
import { benchResolver } from './resolver.bench.ts';
import { benchSandbox } from './sandbox.bench.ts';
import { benchStartup } from './startup.bench.ts';
import { benchSuite } from './suite.bench.ts';

/** `npm run bench`: prints figures for each face against a bare server in the same run. Asserts nothing. */
const benches: Record<string, () => Promise<void>> = {
  monitoring: benchMonitoring,
  maintenance: benchMaintenance,
  fleet: benchFleet,
  'fleet-scale': benchFleetScale,
  resolver: benchResolver,
  sandbox: benchSandbox,
  certify: benchCertify,
  console: benchConsole,
  startup: benchStartup,
  suite: benchSuite,
  'xmlrpc-load': benchXmlRpcLoad,
  fuzz: benchFuzz,
};

/** Benches that run only when named (`npm run bench -- fleet-scale`): they take minutes. */
const onDemand = new Set(['fleet-scale']);

/** Bench names; an option and its value (`--pbx-count 100000`) are the named bench's to read. */
const only = process.argv
  .slice(2)
  .filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
console.log(`# pbx-conformance bench — node ${process.version}, ${new Date().toISOString()}`);
try {
  for (const [name, bench] of Object.entries(benches)) {
    if (only.length ? !only.includes(name) : onDemand.has(name)) continue;
    await bench();
  }
} catch (error) {
  if (!(error instanceof BenchUsageError)) throw error;
  console.error(`bench: ${error.message}`);
  process.exitCode = 2;
}
