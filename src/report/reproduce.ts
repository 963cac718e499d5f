import type { EvidenceAttachment } from './attachments.ts';
import type { RunMetadata } from './model.ts';

/**
 * The commands that reproduce one failing clause against the same target. Commands other than
 * `verify` (fuzz, resolver-check) give the replay lines their evidence carries (`details.replay`,
 * e.g. a shrunk fuzz input); `verify` gives
 * `pbx-conformance verify [--target FILE] --tags @ID`, and for a remote target (whose addresses
 * outlive the run) an `nc` line for each raw-TCP exchange and a `curl` line for each HTTP
 * exchange of the evidence. Shell words are single-quoted; secrets are never in evidence, so
 * they are never in these lines (a redacted credential stays `<redacted>`).
 */
export function reproduceCommands(
  clauseId: string,
  metadata: Pick<RunMetadata, 'targetFile' | 'webUrl'> & Partial<Pick<RunMetadata, 'command'>>,
  evidence: readonly EvidenceAttachment[],
): string[] {
  if (metadata.command !== undefined && metadata.command !== 'verify') {
    const replays = evidence.map((item) => item.details?.['replay']).filter((r) => typeof r === 'string');
    return [...new Set(replays)].slice(0, 4);
  }
  const verify = ['pbx-conformance', 'verify'];
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
