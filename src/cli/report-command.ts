import type { Command } from 'commander';
import type { CliIo } from './cli-io.ts';

/**
 * Registers `report merge` (issue 22). The merge itself (`./report-merge.ts`: Ajv, the renderers)
 * loads only when the command runs, so `--help` stays on commander alone (issue 20, item 9).
 */
export function registerReport(program: Command, io: CliIo, done: (exitCode: number) => void): void {
  const report = program.command('report').description('work with compatibility reports');
  report
    .command('merge')
    .description(
      'join the compatibility.json of the shards of one run (verify --shard i/N), each once and all of them, into one JSON, HTML and JUnit report',
    )
    .argument('<json...>', "each shard's compatibility.json")
    .option(
      '--reports <dir>',
      'directory for the merged compatibility.json, compatibility.html and junit.xml (default: ./reports)',
    )
    .option('--allow-partial', 'merge fewer than all shards of the run; the merged report says it is partial')
    .action(async (files: string[], options: { reports?: string; allowPartial?: boolean }) => {
      const { reportMergeCommand } = await import('./report-merge.ts');
      done(await reportMergeCommand(files, options, io));
    });
}
