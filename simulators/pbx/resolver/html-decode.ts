import { decodeHTMLStrict } from 'entities';

/**
 * Decodes HTML character references in one pass (RESOLVER-EVAL-HTML-DECODE) with the `entities`
 * package's strict HTML5 decoder: named references (the full HTML5 table), decimal `&#…;` and
 * hexadecimal `&#x…;`, each with its semicolon. References without `;` stay as written, as a
 * Java HTML-4 unescaper leaves them; `&amp;lt;` gives `&lt;`, not `<`; C1 code points take their
 * windows-1252 meaning and invalid ones give U+FFFD, as HTML5 says.
 */
export function decodeHtml(text: string): string {
  return decodeHTMLStrict(text);
}
