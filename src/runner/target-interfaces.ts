import type { TargetFile } from '../core/target-file.ts';

/**
 * The clause prefixes (interfaces) a target file names: the `pbx` section stands for the data
 * endpoint, XML-RPC, the monitoring package and the field formats; `maintenance` for interface A;
 * `fleet` for interface B and its attention events, and MCP when it names `mcpUrl`; `resolver`
 * for the web resolver (unless its `trigger` is `none`). Without a target file (the embedded simulator) every interface is named.
 * A run in which a named interface ends with zero verified clauses fails (issue 11, §2).
 */
export function targetInterfaces(target: TargetFile | undefined, allPrefixes: readonly string[]): string[] {
  if (target === undefined) return [...allPrefixes];
  const named = new Set(['MON', 'XMLRPC', 'MKP', 'FIELD']);
  if (target['maintenance'] !== undefined) named.add('MAINT');
  const fleet = target['fleet'] as { mcpUrl?: string } | undefined;
  if (fleet !== undefined) {
    named.add('FLEET');
    named.add('EVENT');
    if (fleet.mcpUrl !== undefined) named.add('MCP');
  }
  // `trigger: none` says up front that the PBX offers no way to trigger a resolution.
  const resolver = target['resolver'] as { trigger?: string } | undefined;
  if (resolver !== undefined && resolver.trigger !== 'none') named.add('RESOLVER');
  return allPrefixes.filter((prefix) => named.has(prefix));
}
