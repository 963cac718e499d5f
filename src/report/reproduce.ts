import type { EvidenceAttachment } from './attachments.ts';
import type { RunMetadata } from './model.ts';

/** How every reproduce line starts: the CLI as a project that installed the package calls it. */
export const CLI = 'npx pbx-conformance';

/**
 * The commands that reproduce one failing clause, a function of the model alone. For `verify`:
 * `npx pbx-conformance verify [--target FILE] --tags @ID`, and for a remote target (whose
 * addresses outlive the run) an `nc` line for each raw-TCP exchange and a `curl` line for each
 * HTTP exchange of the evidence. For `certify-plugin` (`metadata.rerun`): the replay line a shrunk
 * generated state carries, else `certify-plugin [its options] --scenario NAME -- PLUGIN` per failing
 * scenario. Other commands (fuzz, resolver-check) give the replay lines their evidence carries
 * (`details.replay`, e.g. a shrunk fuzz input). Shell words are single-quoted; secrets are never
 * in evidence or in `rerun`, so they are never in these lines (a redacted credential stays `<redacted>`).
 */
export function reproduceCommands(
  clauseId: string,
  metadata: Pick<RunMetadata, 'targetFile' | 'webUrl' | 'rerun'> & Partial<Pick<RunMetadata, 'command'>>,
  evidence: readonly EvidenceAttachment[],
  failedScenarios: readonly string[] = [],
): string[] {
  if (metadata.rerun) return rerunCommands(metadata.rerun, evidence, failedScenarios);
  if (metadata.command !== undefined && metadata.command !== 'verify') {
    return replayLines(evidence).slice(0, 4);
  }
  const verify = [CLI, 'verify'];
  if (metadata.targetFile) verify.push('--target', quote(metadata.targetFile));
  verify.push('--tags', `@${clauseId}`);
  const lines = [verify.join(' ')];
  if (!metadata.targetFile) return lines;
  for (const item of evidence) {
    const line = exchangeCommand(item, metadata.webUrl ?? null);
    if (line && !lines.includes(line)) lines.push(line);
  }
  return lines.slice(0, 4);
}

/** `certify-plugin` lines: a shrunk state's own replay line, or the run narrowed to the scenario. */
function rerunCommands(
  rerun: NonNullable<RunMetadata['rerun']>,
  evidence: readonly EvidenceAttachment[],
  failedScenarios: readonly string[],
): string[] {
  const lines = replayLines(evidence);
  if (lines.length > 0) return lines;
  const base = [CLI, rerun.command, ...rerun.options.map(word)];
  // A scenario file is the run's only scenario: it needs no --scenario.
  const fromFile = rerun.options.includes('--scenario-file');
  const scenarios = fromFile ? [''] : [...new Set(failedScenarios)];
  for (const name of scenarios.length > 0 ? scenarios : ['']) {
    lines.push([...base, ...(name ? ['--scenario', word(name)] : []), '--', rerun.plugin].join(' '));
  }
  return lines;
}

/** The replay lines the evidence carries (`details.replay`), each as `npx pbx-conformance …`, once. */
function replayLines(evidence: readonly EvidenceAttachment[]): string[] {
  const lines: string[] = [];
  for (const item of evidence) {
    const replay = item.details?.['replay'];
    if (typeof replay !== 'string') continue;
    const line = replay.startsWith('pbx-conformance ') ? `npx ${replay}` : replay;
    if (!lines.includes(line)) lines.push(line);
  }
  return lines;
}

/** `TCP host:port from X (raw)` → nc; `TCP host:port …` with an HTTP request → printf | nc; `HTTP METHOD path` → curl. */
function exchangeCommand(evidence: EvidenceAttachment, webUrl: string | null): string | undefined {
  const tcp = /^TCP (\[[^\]]+\]|[^\s:]+):(\d+)(?: from (\S+))?/.exec(evidence.exchange);
  if (tcp) {
    const [, host = '', port = '', from] = tcp;
    const source = from && from !== 'any' ? ` -s ${from}` : '';
    const target = `nc${source} -w 8 ${host.replace(/^\[|\]$/g, '')} ${port}`;
    const request = evidence.request;
    if (
      request === undefined ||
      request === '(nothing sent)' ||
      !/^[A-Z]+ \S+ HTTP\/1\.[01]\r?\n/.test(request)
    ) {
      return `${target} < /dev/null`;
    }
    return `printf '%s' ${quote(request.replace(/\r?\n/g, '\r\n'))} | ${target}`;
  }
  const http = /^HTTP (GET|POST|PUT|PATCH|DELETE|HEAD) (\/\S*)/.exec(evidence.exchange);
  if (http && webUrl) {
    const [, method = 'GET', path = '/'] = http;
    return `curl -sS -i -X ${method} ${quote(`${webUrl.replace(/\/+$/, '')}${path}`)}`;
  }
  return undefined;
}

/** A shell word: bare when it holds nothing a shell treats specially, else {@link quote}d. */
function word(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : quote(text);
}

/** A POSIX shell single-quoted word; control characters are printed with `$'…'` escapes. */
function quote(word: string): string {
  if (/[\u0000-\u0008\u000b-\u001f\u007f\r]/.test(word) || word.includes('\n')) {
    const escaped = [...word]
      .map((char) => {
        if (char === '\\' || char === "'") return `\\${char}`;
        if (char === '\r') return '\\r';
        if (char === '\n') return '\\n';
        if (char === '\t') return '\\t';
        const code = char.charCodeAt(0);
        return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : char;
      })
      .join('');
    return `$'${escaped}'`;
  }
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Text as the bytes on the wire, escaped so nothing is hidden: CR, LF and TAB as `\r`, `\n`,
 * `\t` (a line break follows each `\n` for reading), other control bytes and every non-ASCII
 * byte of the UTF-8 encoding as `\xNN`, a backslash as `\\`.
 */
export function escapedBytes(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\\') out += '\\\\';
    else if (char === '\r') out += '\\r';
    else if (char === '\n') out += '\\n\n';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || code > 0x7e) {
      for (const byte of Buffer.from(char, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else out += char;
  }
  return out;
}
