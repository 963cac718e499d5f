/**
 * The real module evaluates matchers as Java regular expressions (java.util.regex, flags DOTALL
 * and MULTILINE); the simulator runs JavaScript's. This reads a matcher the way Java would and
 * notes every construct the two treat differently (docs/resolver.md, "Java and JavaScript
 * regular expressions"). Where an exact JavaScript equivalent exists it is translated, so the
 * simulator matches as the module would; otherwise the note says what happens.
 */

export type RegexNoteKind =
  /** Translated to an exact JavaScript equivalent; matches as in Java. */
  | 'translated'
  /** JavaScript cannot run it: the parser yields nothing in the simulator. */
  | 'cannot-run'
  /** Java refuses the pattern (PatternSyntaxException): the real module cannot use this parser. */
  | 'java-rejects'
  /** Both accept it but they may match differently. */
  | 'differs';

export interface RegexNote {
  kind: RegexNoteKind;
  construct: string;
  message: string;
}

export interface JavaRegexReading {
  /** JavaScript source to compile. */
  source: string;
  /** JavaScript flags: always `s` and `m` (RESOLVER-MATCHER-DOTALL, RESOLVER-MATCHER-MULTILINE). */
  flags: string;
  notes: RegexNote[];
}

const H_CLASS = '[\\t \\xA0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000]';
const H_NOT = '[^\\t \\xA0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000]';
const V_CLASS = '[\\n\\x0B\\f\\r\\x85\\u2028\\u2029]';
const V_NOT = '[^\\n\\x0B\\f\\r\\x85\\u2028\\u2029]';

function escapeLiteral(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, (c) => `\\${c}`);
}

function codePointEscape(cp: number): string {
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  const high = Math.floor((cp - 0x10000) / 0x400) + 0xd800;
  const low = ((cp - 0x10000) % 0x400) + 0xdc00;
  return `(?:\\u${high.toString(16)}\\u${low.toString(16)})`;
}

/** Reads a matcher as Java would and returns JavaScript source, flags and notes. */
export function readJavaRegex(pattern: string): JavaRegexReading {
  const notes: RegexNote[] = [];
  const note = (kind: RegexNoteKind, construct: string, message: string) => {
    if (!notes.some((n) => n.kind === kind && n.construct === construct))
      notes.push({ kind, construct, message });
  };
  let flags = 'sm';
  let i = 0;
  let out = '';
  const lead = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
  if (lead) {
    const letters = lead[1] as string;
    for (const letter of letters) {
      if (letter === 'i') flags += flags.includes('i') ? '' : 'i';
      else if (letter === 's' || letter === 'm') {
        /* already on */
      } else
        note(
          'cannot-run',
          `(?${letter})`,
          `inline flag ${letter} has no JavaScript equivalent and is ignored`,
        );
    }
    note('translated', lead[0], `the leading inline flags ${lead[0]} are applied as JavaScript flags`);
    i = lead[0].length;
  }
  let inClass = 0;
  const lookbehindDepth: number[] = [];
  let depth = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) {
        note('java-rejects', '\\', 'a trailing backslash is an error in Java');
        out += '\\\\';
        i++;
        continue;
      }
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const literal = pattern.slice(i + 2, end === -1 ? undefined : end);
        out += inClass ? literal.replace(/[\\\]^-]/g, (x) => `\\${x}`) : escapeLiteral(literal);
        note('translated', '\\Q…\\E', 'quoted text \\Q…\\E is translated to escaped literal text');
        i = end === -1 ? pattern.length : end + 2;
        continue;
      }
      const two = `\\${next}`;
      i += 2;
      if (!inClass && next === 'A') {
        out += '(?<![\\s\\S])';
        note(
          'translated',
          '\\A',
          '\\A (start of input) is translated; in JavaScript \\A would match the letter A',
        );
      } else if (!inClass && next === 'z') {
        out += '(?![\\s\\S])';
        note(
          'translated',
          '\\z',
          '\\z (end of input) is translated; in JavaScript \\z would match the letter z',
        );
      } else if (!inClass && next === 'Z') {
        out += '(?=(?:\\r\\n|[\\n\\r\\x85\\u2028\\u2029])?(?![\\s\\S]))';
        note('translated', '\\Z', '\\Z (end of input before a final line break) is translated');
      } else if (next === 'h' || next === 'H') {
        out += inClass ? (next === 'h' ? H_CLASS.slice(1, -1) : '') : next === 'h' ? H_CLASS : H_NOT;
        if (inClass && next === 'H')
          note('cannot-run', two, '\\H inside a character class has no JavaScript equivalent');
        else
          note('translated', two, `${two} (horizontal whitespace) is translated; JavaScript has no ${two}`);
      } else if (next === 'v' || next === 'V') {
        out += inClass ? (next === 'v' ? V_CLASS.slice(1, -1) : '') : next === 'v' ? V_CLASS : V_NOT;
        note(
          'translated',
          two,
          `${two} means vertical whitespace in Java but only \\x0B in JavaScript; translated`,
        );
      } else if (next === 'R' && !inClass) {
        out += '(?:\\r\\n|[\\n\\x0B\\f\\r\\x85\\u2028\\u2029])';
        note('translated', two, '\\R (any line break) is translated');
      } else if (next === 'e') {
        out += '\\x1B';
        note('translated', two, '\\e (escape character) is translated');
      } else if (next === 'a') {
        out += '\\x07';
        note('translated', two, '\\a (bell character) is translated');
      } else if (next === 'x' && pattern[i] === '{') {
        const end = pattern.indexOf('}', i);
        const cp = Number.parseInt(pattern.slice(i + 1, end), 16);
        if (end === -1 || !Number.isFinite(cp) || cp > 0x10ffff) {
          note('java-rejects', '\\x{…}', 'an invalid \\x{…} escape is an error in Java');
          out += '\\\\x';
        } else {
          out += codePointEscape(cp);
          note('translated', '\\x{…}', '\\x{h…h} is translated to a JavaScript code point escape');
          i = end + 1;
        }
      } else if (next === 'G' || next === 'X' || next === 'K') {
        note(
          'cannot-run',
          two,
          `${two} has no JavaScript equivalent (JavaScript would match the letter ${next})`,
        );
        out += `(?!)`;
      } else if ((next === 'p' || next === 'P') && pattern[i] === '{') {
        const end = pattern.indexOf('}', i);
        const name = pattern.slice(i + 1, end === -1 ? undefined : end);
        note(
          'cannot-run',
          `${two}{${name}}`,
          `Unicode or POSIX class ${two}{${name}} needs JavaScript's Unicode mode, which this simulator does not use (Java's java*/POSIX names have no JavaScript equivalent at all)`,
        );
        out += `\\${next}{${name}}`;
        i = end === -1 ? pattern.length : end + 1;
      } else if (next === '0' && !/[0-7]/.test(pattern[i] ?? '')) {
        note('java-rejects', '\\0', 'Java needs an octal digit after \\0');
        out += '\\0';
      } else if (next === 'k' && pattern[i] === '<') {
        out += two;
      } else {
        out += two;
      }
      continue;
    }
    if (inClass) {
      if (c === '[') {
        note(
          'differs',
          '[…[…]…]',
          'a nested character class is a union in Java but a literal [ in JavaScript',
        );
        out += '\\[';
        i++;
        continue;
      }
      if (c === '&' && pattern[i + 1] === '&') {
        note(
          'differs',
          '&&',
          'character class intersection && exists in Java only; JavaScript reads it literally',
        );
      }
      if (c === ']') inClass = 0;
      out += c;
      i++;
      continue;
    }
    if (c === '[') {
      inClass = 1;
      out += c;
      i++;
      if (pattern[i] === '^') {
        out += '^';
        i++;
      }
      if (pattern[i] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(') {
      depth++;
      const rest = pattern.slice(i);
      if (rest.startsWith('(?>')) note('cannot-run', '(?>', 'atomic groups (?>…) are Java only');
      else if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) lookbehindDepth.push(depth);
      else if (/^\(\?<([^>=!]*)>/.test(rest)) {
        const name = (/^\(\?<([^>]*)>/.exec(rest)?.[1] ?? '') as string;
        if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name))
          note(
            'java-rejects',
            `(?<${name}>`,
            'Java group names take only ASCII letters and digits, starting with a letter',
          );
      } else if (/^\(\?[a-zA-Z-]+[:)]/.test(rest)) {
        note(
          'cannot-run',
          /^\(\?[a-zA-Z-]+[:)]/.exec(rest)?.[0] ?? '(?',
          'inline flags inside the pattern are Java only',
        );
      }
      out += c;
      i++;
      continue;
    }
    if (c === ')') {
      if (lookbehindDepth.at(-1) === depth) lookbehindDepth.pop();
      depth = Math.max(0, depth - 1);
      out += c;
      i++;
      continue;
    }
    if (c === '*' || c === '+' || c === '?' || c === '{') {
      let quantifier = c;
      if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
        if (!m) {
          note(
            'java-rejects',
            '{',
            'an unescaped { that is not a quantifier is an error in Java ("Illegal repetition"); write \\{',
          );
          out += '\\{';
          i++;
          continue;
        }
        quantifier = m[0];
        if (lookbehindDepth.length && m[2] !== undefined && m[3] === '')
          note('java-rejects', '(?<=…*)', 'Java needs a bounded length inside a lookbehind');
      } else if ((c === '*' || c === '+') && lookbehindDepth.length) {
        note('java-rejects', '(?<=…*)', 'Java needs a bounded length inside a lookbehind');
      }
      i += quantifier.length;
      out += quantifier;
      if (pattern[i] === '+') {
        note('cannot-run', `${quantifier}+`, `possessive quantifier ${quantifier}+ is Java only`);
        out += '+';
        i++;
      } else if (pattern[i] === '?') {
        out += '?';
        i++;
      }
      continue;
    }
    out += c;
    i++;
  }
  return { source: out, flags, notes };
}
