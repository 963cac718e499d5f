import { Command, CommanderError, Option } from 'commander';
import { DEFAULT_ADDRESS_POOL } from '../../simulators/fleet/index.ts';
import { EXIT_CODES_HELP, EXIT_HARNESS_ERROR } from '../core/exit-codes.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import { TOOL_VERSION, versionText } from '../core/tool-version.ts';
import { registerCertificate } from './certificate-command.ts';
import { registerCertifyPlugin } from './certify-plugin-command.ts';
import type { CliIo } from './cli-io.ts';
import { registerEndpoint } from './endpoint-command.ts';
import { registerFuzz } from './fuzz-command.ts';
import { parsePercent, parsePort, parseRepeat, parseWorkerCount } from './parse-options.ts';
import { registerRecord } from './record-command.ts';
import { registerReport } from './report-command.ts';
import { registerResolverCheck } from './resolver-check-command.ts';
import {
  DEFAULT_PBX_COUNT,
  DEFAULT_POOL_WEB_PORT,
  parseEventsPerHour,
  parsePbxCount,
  type SimulateOptions,
  simulateCommand,
} from './simulate-command.ts';
import type { VerifyOptions } from './verify-command.ts';

/** Exit code of usage errors (unknown command or option, bad option value). */
const USAGE_EXIT_CODE = 2;

/**
 * The CLI core: parses `argv` (without node and script), runs the command and returns its exit
 * code. Never throws: errors print one line `pbx-conformance: <reason>` to stderr, no stack trace.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = new Command('pbx-conformance')
    .description(
      'Conformance harness and protocol simulator for a PBX (data endpoint, XML-RPC, maintenance API, web resolver) and its fleet controller (REST, MCP)',
    )
    .version(
      versionOrReason(),
      '-V, --version',
      'print the CLI version, the clause catalog and the spec revisions it judges',
    )
    .exitOverride()
    // `record --out` and `record import --out` are different options: each command reads its own.
    .enablePositionalOptions()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: () => {},
    })
    .showSuggestionAfterError(true)
    .addHelpText('after', `\n${EXIT_CODES_HELP}`);

  program
    .command('verify')
    .description('run the conformance scenarios against a target and write the compatibility reports')
    .option('--target <file>', 'target description (JSON); default: the embedded simulator')
    .option(
      '--tags <expression>',
      'Cucumber tag expression selecting scenarios, e.g. "@MON-TEXT-AGENT-SECTION"',
    )
    .option(
      '--reports <dir>',
      'directory for compatibility.json, compatibility.html and junit.xml (default: ./reports)',
    )
    .option('--quiet', 'no progress output, only the summary')
    .option('--parallel <n>', 'number of worker processes', parseWorkerCount)
    .option(
      '--baseline <file>',
      'expected-failures file (YAML list of {clause, reason, until?}) anywhere, instead of ./features/expected-failures/<target>.yaml',
    )
    .option(
      '--require <prefix...>',
      'clause-id prefixes (e.g. MAINT, MON-AUTH) whose testable clauses must all be verified',
    )
    .option(
      '--fail-under <percent>',
      'fail when fewer than this share of the testable clauses of the named interfaces pass',
      parsePercent,
    )
    .option(
      '--repeat <n>',
      'run the selection n times; each clause is stable pass, stable fail or flaky (a flaky clause fails the run, never retried silently)',
      parseRepeat,
    )
    .option(
      '--shard <i/N>',
      "run only shard i (1 to N) of the selected scenarios, by cucumber's own sharding; N alone takes i from JOB_COMPLETION_INDEX (join the shards' reports with report merge)",
    )
    .addOption(
      new Option(
        '--evidence <form>',
        'evidence of passing scenarios in the report: compact (exchange line, sizes, SHA-256, the first bytes) or full; failures and not-verifiable results are always full',
      )
        .choices(['compact', 'full'])
        .default('compact'),
    )
    .option(
      '--run-id <id>',
      'the id every shard of one run shares, so report merge joins only its shards (default: PBX_CONFORMANCE_RUN_ID, else derived from the target, --tags, the shard count, tool and catalog)',
    )
    .action(async (options: VerifyOptions) => {
      // Loaded on demand: Cucumber and the report code are most of the start-up time (issue 13).
      const { verifyCommand } = await import('./verify-command.ts');
      exitCode = await verifyCommand(options, io);
    });

  program
    .command('simulate')
    .description('run the simulated PBX and a fleet controller with more PBXs until interrupted (Ctrl-C)')
    .option('--scenario <name|file>', 'scenario name or scenario file (default: healthy)')
    .option('--port <n>', "data endpoint port (default: the scenario's, 6556)", parsePort)
    .option('--web-port <n>', 'web server port, XML-RPC at /xml-rpc (default: any free port)', parsePort)
    .option('--control-port <n>', 'control plane port (default: any free port)', parsePort)
    .option(
      '--host <address>',
      'address the PBX and fleet faces bind (control planes: --control-host)',
      '127.0.0.1',
    )
    .option(
      '--control-host <address>',
      'address the control planes bind (beyond loopback they need a token)',
      '127.0.0.1',
    )
    .option(
      '--control-token <token>',
      'bearer token the control planes require (default beyond loopback: generated, printed once)',
    )
    .addOption(
      new Option('--clock <mode>', 'virtual clock mode').choices(['running', 'frozen']).default('running'),
    )
    .option('--json', 'print the target description as the first stdout line (for verify --target)')
    .option(
      '--pbx-count <n>',
      `PBXs in the fleet, this one included, one per site (default: ${DEFAULT_PBX_COUNT})`,
      parsePbxCount,
    )
    .option('--no-fleet', 'run the PBX alone, without a fleet controller')
    .option('--data <dir>', "keep the fleet controller's state in this directory (default: in memory)")
    .option(
      '--address-pool <range>',
      `one address per PBX from this range (a.b.c.d/len or first-last), every PBX on the same ports (--port, default 6556; --web-port, default ${DEFAULT_POOL_WEB_PORT}); the control planes at <control plane>/pbx/<siteId>; default beyond 50 PBXs: ${DEFAULT_ADDRESS_POOL}`,
    )
    .addOption(
      new Option(
        '--activity <kind>',
        'field: every PBX changes over virtual time like a real one, from --seed',
      )
        .choices(['none', 'field'])
        .default('none'),
    )
    .option('--seed <text>', 'seed of --activity field (default: field); the same seed, the same activity')
    .option(
      '--fleet-only',
      'run the fleet controller alone; shards (--shard) bring the PBXs (keys from PBX_CONFORMANCE_FLEET_SECRET)',
    )
    .option(
      '--shard <i/N>',
      "run shard i (1 to N) of N of a fleet of --pbx-count PBXs, linked to --controller; N alone takes i from Kubernetes' JOB_COMPLETION_INDEX",
    )
    .option(
      '--controller <url>',
      'tcp://host:port: the ingest listener of simulate --fleet-only, for --shard',
    )
    .option('--api-port <n>', "the fleet controller's REST + MCP port (default: any free port)", parsePort)
    .option('--ingest-port <n>', "the fleet controller's PBX ingest port (default: any free port)", parsePort)
    .option(
      '--events-per-hour <n>',
      'attention events per PBX and virtual hour under --activity field (default 1)',
      parseEventsPerHour,
    )
    .option(
      '--recording <file>',
      'serve a recording (pbx-conformance record) byte for byte; the control plane still switches tile, licence and hosts',
    )
    .addOption(
      new Option('--timing <mode>', 'replay the recorded delays, or none')
        .choices(['recorded', 'none'])
        .default('recorded'),
    )
    .option(
      '--target-file <file>',
      'write the target description here once every face listens (stale one removed first, written whole, removed at the stop)',
    )
    .argument(
      '[command...]',
      'after --: run this command once the simulator listens, then stop; exit with its exit code',
    )
    .action(async (command: string[], options: SimulateOptions) => {
      exitCode = await simulateCommand(options, io, command);
    });

  registerFuzz(program, io, (code) => {
    exitCode = code;
  });
  registerResolverCheck(program, io, (code) => {
    exitCode = code;
  });
  registerEndpoint(program, io, (code) => {
    exitCode = code;
  });
  registerCertifyPlugin(program, io, (code) => {
    exitCode = code;
  });
  registerCertificate(program, io, (code) => {
    exitCode = code;
  });
  registerReport(program, io, (code) => {
    exitCode = code;
  });
  registerRecord(program, io, (code) => {
    exitCode = code;
  });

  // Every command's --help ends with the exit codes (commands registered above included).
  for (const command of program.commands) command.addHelpText('after', `\n${EXIT_CODES_HELP}`);

  try {
    await program.parseAsync(withoutHelpOfUnknownCommand(program, argv), { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      // Help shown because no command was given has already been printed.
      if (error.code !== 'commander.help') io.stderr.write(`pbx-conformance: ${commanderReason(error)}\n`);
      return USAGE_EXIT_CODE;
    }
    io.stderr.write(`pbx-conformance: ${oneLineMessage(error)}\n`);
    // Conformance failures are returned as exit codes, never thrown: anything thrown is the harness's.
    return error instanceof HarnessError ? error.exitCode : EXIT_HARNESS_ERROR;
  }
}

/**
 * `pbx-conformance certifcate --help` would print the general help and exit 0, since commander
 * reads `--help` before it looks the command up: a script could not tell that the command does
 * not exist (issue 29, item 13). When a name where a command is expected (at the top, or below a
 * command that only groups others, such as `report`) names no command, `--help`/`-h` is dropped,
 * so the parse says "unknown command" with the closest name and exits 2, as without `--help`.
 */
export function withoutHelpOfUnknownCommand(program: Command, argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  const isHelp = (arg: string) => arg === '--help' || arg === '-h';
  if (!options.some(isHelp)) return [...argv];
  let command = program;
  for (const arg of options) {
    if (arg.startsWith('-')) continue;
    if (command.commands.length === 0) break;
    const next = command.commands.find((sub) => sub.name() === arg || sub.aliases().includes(arg));
    if (next === undefined) {
      // `help` is commander's own command; a command with its own action or arguments reads the word itself.
      const groupsOnly =
        command === program || (command.registeredArguments.length === 0 && !hasAction(command));
      if (arg === 'help' || !groupsOnly) break;
      return argv.filter((word, i) => (end !== -1 && i >= end) || !isHelp(word));
    }
    command = next;
  }
  return [...argv];
}

/** Whether a command runs something itself (`record`) rather than only grouping others (`report`). */
function hasAction(command: Command): boolean {
  return (command as unknown as { _actionHandler: unknown })._actionHandler != null;
}

function commanderReason(error: CommanderError): string {
  return oneLineMessage(error).replace(/^error:\s*/, '');
}

/**
 * `--version`'s text; with a clause catalog that cannot be read (a broken install) it says so
 * instead of ending every command with a stack trace, and the command that needs the catalog
 * stops with one line.
 */
function versionOrReason(): string {
  try {
    return versionText();
  } catch (error) {
    return `pbx-conformance ${TOOL_VERSION}\ncatalog: features/clauses.yaml cannot be read (${oneLineMessage(error)})`;
  }
}
