import type { Command } from 'commander';
import type { ResolverCheckOptions } from '../resolver-check/resolver-check-options.ts';
import type { CliIo } from './cli-io.ts';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `resolver-check`: resolves numbers against an integrator's endpoint exactly as the simulated
 * PBX's web resolver would, and reports each step, timings against the timeout, charset,
 * compression, parser hits, the composed name and known pitfalls (docs/resolver.md).
 * Exit code 0 when every number resolved without an error finding, 1 otherwise, 2 on bad options.
 */
export function registerResolverCheck(program: Command, io: CliIo, done: (exitCode: number) => void): void {
  program
    .command('resolver-check')
    .description("resolve numbers against a customer endpoint exactly as the PBX's web resolver would")
    .option('--provider <file>', 'provider configuration (JSON, schemas/resolver-provider.schema.json)')
    .option('--url <url>', 'query URL with placeholders such as {tel}')
    .option('--method <GET|POST>', 'request method')
    .option('--format <+xx|00xx|0>', 'phone number format')
    .option('--auth <None|Basic|Digest|Bearer>', 'authentication')
    .option('--username <name>', 'user name for Basic or Digest')
    .option('--password <password>', 'password for Basic or Digest (or PBX_RESOLVER_PASSWORD)')
    .option('--token <token>', 'security token for Bearer (or PBX_RESOLVER_TOKEN)')
    .option('--field <id=value>', 'configuration field for a {<fieldId>} placeholder (repeatable)', collect)
    .option('--matcher <regex>', 'parser matcher, DOTALL and MULTILINE (repeatable, in order)', collect)
    .option('--formatter <text>', 'formatter of the matcher at the same position, e.g. "\\1"', collect)
    .option('--first-name <template>', 'field mapping for the first name, e.g. "{0}"')
    .option('--last-name <template>', 'field mapping for the last name')
    .option('--company <template>', 'field mapping for the company')
    .option('--timeout <ms>', 'timeout in ms, 100 to 1500 (default 700)')
    .option('--insecure', 'do not verify the server certificate')
    .option('--ca <file>', 'PEM file of a CA to trust besides the built-in roots (repeatable)', collect)
    .option('--country-code <cc>', "the PBX's country code (default 49)")
    .option('--number <n>', 'number to resolve (repeatable)', collect)
    .option('--no-compare-formats', 'do not try the other two number formats')
    .option('--json', 'print the report as JSON (schemas/compatibility-report.schema.json)')
    .option('--reports <dir>', 'also write compatibility.json, compatibility.html and junit.xml here')
    .action(async (options: ResolverCheckOptions) => {
      // Loaded on demand, so `--help` and the other commands start without the resolver client.
      const { runResolverCheck } = await import('../resolver-check/run-resolver-check.ts');
      done((await runResolverCheck(options, io)).exitCode);
    });
}
