import { type Command, InvalidArgumentError } from 'commander';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import type { CliIo } from './cli-io.ts';

/** `--every 60s`, `500ms`, `2m`, or plain seconds. */
export function parseDuration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value);
  if (!match) throw new InvalidArgumentError('expected a duration such as 60s, 500ms or 2m');
  const n = Number(match[1]);
  const ms = match[2] === 'ms' ? n : match[2] === 'm' ? n * 60_000 : n * 1000;
  if (ms <= 0 || ms > 86_400_000) throw new InvalidArgumentError('expected more than 0 and at most 24 h');
  return ms;
}

function parseRepeatCount(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 10_000)
    throw new InvalidArgumentError('expected 1 to 10000');
  return Number(value);
}

/**
 * `record` (capture a PBX), `record import` (a recording as a scenario file) and `record diff`
 * (the fidelity diff). docs/recording.md.
 */
export function registerRecord(program: Command, io: CliIo, done: (exitCode: number) => void): void {
  const record = program
    .command('record')
    .enablePositionalOptions()
    .description(
      'record a PBX (data endpoint raw and HTTP with timing, XML-RPC, maintenance command list, package hash), redacted, into one JSON file; "record import" and "record diff" read recordings',
    )
    .option('--target <file>', 'target description (JSON), as for verify --target')
    .option(
      '--out <file>',
      'recording to write (JSON); the raw agent output goes beside it as <name>.checkmk',
    )
    .option('--repeat <n>', 'samples to take (a time series)', parseRepeatCount)
    .option('--every <duration>', 'time between samples, e.g. 60s (default 60s)', parseDuration)
    .option('--timeout <duration>', 'longest wait for one fetch (default 10s)', parseDuration)
    .option('--rules <file>', 'extra redaction patterns (schemas/redaction-rules.schema.json)')
    .option(
      '--redaction-key <file>',
      'key the pseudonyms from this file (recordings with the same key share pseudonyms); default: a key made for this run',
    )
    .action(
      async (options: {
        target?: string;
        out?: string;
        repeat?: number;
        every?: number;
        timeout?: number;
        rules?: string;
        redactionKey?: string;
      }) => {
        if (!options.target || !options.out)
          throw new HarnessError('record needs --target <file> and --out <file>');
        const { recordCommand, RecordUsageError } = await import('../record/record-command.ts');
        try {
          const result = await recordCommand(
            {
              target: options.target,
              out: options.out,
              ...(options.repeat === undefined ? {} : { repeat: options.repeat }),
              ...(options.every === undefined ? {} : { every: options.every }),
              ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
              ...(options.rules === undefined ? {} : { rules: options.rules }),
              ...(options.redactionKey === undefined ? {} : { redactionKey: options.redactionKey }),
            },
            io.cwd,
            (line) => io.stderr.write(`record: ${line}\n`),
          );
          const counts = Object.entries(result.value.redaction.counts)
            .map(([kind, n]) => `${kind} ${n}`)
            .join(', ');
          io.stdout.write(
            `recording: ${result.recording}\nCheckmk dump: ${result.dump}\nredacted: ${counts || 'nothing'}\n`,
          );
          done(0);
        } catch (error) {
          if (error instanceof RecordUsageError) throw new HarnessError(error.message);
          throw new HarnessError(oneLineMessage(error));
        }
      },
    );

  record
    .command('import')
    .description(
      "turn a recording into a scenario file (schemas/pbx-scenario.schema.json) through the project's parsers",
    )
    .argument('<recording>', 'recording file')
    .requiredOption('--out <file>', 'scenario file to write')
    .option('--name <name>', 'scenario name (default: from the file name)')
    .action(async (file: string, options: { out: string; name?: string }) => {
      const { importCommand } = await import('../record/import-command.ts');
      done(await importCommand(file, options, io));
    });

  record
    .command('diff')
    .description(
      'compare a recording with the simulator rendering its imported state, or two recordings; exit 1 on a fidelity defect',
    )
    .argument('<recording>', 'recording file')
    .argument('[other]', 'a second recording: compare the two instead')
    .option('--json', 'print the findings as JSON')
    .action(async (file: string, other: string | undefined, options: { json?: boolean }) => {
      const { diffCommand } = await import('../record/diff-command.ts');
      done(await diffCommand(file, other, options, io));
    });
}
