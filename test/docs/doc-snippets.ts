import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The command snippets of the user documentation (issue 29, item 11): in README.md and the shipped
 * docs/*.md (not docs/design.md), every line of a fenced `sh` block that starts with
 * `npx pbx-conformance`, with `\` continuation lines joined; a joined line holding a second
 * `npx pbx-conformance` (`simulate … -- npx pbx-conformance verify …`) gives a second snippet.
 * CONTRIBUTING.md ("Command snippets in the docs") states the rule for whoever writes docs.
 */
export interface DocSnippet {
  /** `README.md` or `docs/<name>.md`. */
  file: string;
  /** 1-based line of the snippet's first line. */
  line: number;
  /** The words after `npx pbx-conformance`, shell-split, up to a comment, redirection or pipe. */
  words: string[];
  /**
   * The block is a recipe for a source checkout: the three lines before its fence say "run from
   * this repository" or "in a checkout". Its paths are the repository's, not a user's project's.
   */
  fromRepository: boolean;
}

/** How the text before a block says that its commands run in a source checkout. */
const REPOSITORY_RECIPE = /run from this repository|in a (source )?checkout/i;

/** The files whose snippets a user meets: README.md and the docs the package ships. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'design.md')
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export function docSnippets(root: string): DocSnippet[] {
  return documentationFiles(root).flatMap((file) => snippetsOf(readFileSync(join(root, file), 'utf8'), file));
}

/** The snippets of one Markdown text. */
export function snippetsOf(markdown: string, file: string): DocSnippet[] {
  const lines = markdown.split('\n');
  const snippets: DocSnippet[] = [];
  let fence: string | null = null;
  let fromRepository = false;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    const opening = /^\s*(```+)\s*(\S*)/.exec(text);
    if (opening) {
      if (fence === null) {
        fence = opening[2] ?? '';
        fromRepository = REPOSITORY_RECIPE.test(lines.slice(Math.max(0, i - 3), i).join(' '));
      } else fence = null;
      continue;
    }
    if (fence !== 'sh' || !text.trim().startsWith('npx pbx-conformance')) continue;
    const start = i;
    let joined = text.trim();
    while (joined.endsWith('\\') && i + 1 < lines.length)
      joined = `${joined.slice(0, -1)} ${(lines[++i] ?? '').trim()}`;
    const words = shellWords(joined);
    // One snippet per `npx pbx-conformance` in the joined line.
    let from = -1;
    for (let w = 0; w <= words.length; w++) {
      const starts = words[w] === 'npx' && words[w + 1] === 'pbx-conformance';
      if (w === words.length || starts) {
        if (from !== -1)
          snippets.push({ file, line: start + 1, words: words.slice(from + 2, w), fromRepository });
        from = w;
      }
    }
  }
  return snippets;
}

/** Words of a shell line with '…' and "…" quoting, up to `#`, `>`, `<`, `|`, `;` or `&&` outside quotes. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      word = (word ?? '') + line.slice(i + 1, end === -1 ? line.length : end);
      i = end === -1 ? line.length : end;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (
      (c === '#' && word === null) ||
      c === '>' ||
      c === '<' ||
      c === '|' ||
      c === ';' ||
      (c === '&' && line[i + 1] === '&')
    ) {
      break;
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/** The `--options` a snippet gives its command (before a standalone `--`), `--name=value` as `--name`. */
export function snippetOptions(words: readonly string[]): string[] {
  const end = words.indexOf('--');
  return (end === -1 ? words : words.slice(0, end))
    .filter((word) => word.startsWith('--'))
    .map((word) => word.split('=')[0] ?? word);
}

/** Whether a command's `--help` text lists `option`. */
export function helpLists(help: string, option: string): boolean {
  return new RegExp(`(^|[\\s,])${option.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&')}(?=[\\s=,<[]|$)`, 'm').test(
    help,
  );
}
