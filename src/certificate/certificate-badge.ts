import type { CertificationPredicate } from './certification-predicate.ts';

/** The badge's left half. */
export const BADGE_LABEL = 'PBX certified';

const COLOURS = { values: '#4c1', state: '#97ca00', form: '#a4a61d', unstated: '#007ec6' } as const;

/**
 * Advance widths of Verdana at 11 px (the face shields.io badges are set in), rounded to tenths;
 * characters not listed take the width of `n`. The `textLength` of each text pins the drawn width
 * to this measure, so a browser with another fallback face still fits the text in its box.
 */
const WIDTH_GROUPS: [number, string][] = [
  [3.1, 'il'],
  [3.4, 'j'],
  [3.9, ' .,f'],
  [4.3, 't'],
  [4.6, '·:-I'],
  [4.7, 'r|'],
  [4.9, '/'],
  [5.0, 'J'],
  [5.4, '()'],
  [5.6, 'z'],
  [5.7, 'sc'],
  [6.1, 'L'],
  [6.3, 'F'],
  [6.5, 'kvxy'],
  [6.6, 'P'],
  [6.7, 'ao'],
  [6.8, 'eETY'],
  [6.9, 'bdgpq'],
  [7.0, 'nuh0123456789'],
  [7.5, 'SBAV'],
  [7.6, 'KXZ'],
  [7.7, 'RC'],
  [8.1, 'U'],
  [8.2, 'N'],
  [8.3, 'H'],
  [8.4, 'G'],
  [8.5, 'D'],
  [8.7, 'OQ'],
  [9.0, 'w'],
  [9.3, 'M'],
  [10.7, 'm'],
  [11.0, 'W'],
];
const WIDTHS = new Map(
  WIDTH_GROUPS.flatMap(([width, chars]) => [...chars].map((ch) => [ch, width] as const)),
);
function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += WIDTHS.get(ch) ?? 7.0;
  return Math.round(width * 10) / 10;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The message of a certificate's badge: its level and coverage (`values · 23/23`: 23 of 23
 * performance-data labels certified); where the certificate states no coverage (or the plug-in
 * prints no label), the passed clauses out of those judged.
 */
export function badgeMessage(predicate: CertificationPredicate): string {
  const level = 'value' in predicate.level ? predicate.level.value : null;
  const coverage = 'value' in predicate.coverage ? coverageFraction(predicate.coverage.value) : null;
  const passed = predicate.clauses.filter((c) => c.verdict === 'pass' || c.verdict === 'warn').length;
  const count = coverage ?? `${passed}/${predicate.clauses.length}`;
  return level ? `${level} · ${count}` : count;
}

/**
 * The coverage as a fraction: the performance-data labels whose figures were certified (declared
 * in `measures` or followed by figure tracking) out of every label the plug-in printed.
 */
function coverageFraction(value: Record<string, unknown>): string | null {
  const { declared, tracked, labels } = value;
  return typeof declared === 'number' &&
    typeof tracked === 'number' &&
    typeof labels === 'number' &&
    labels > 0
    ? `${declared + tracked}/${labels}`
    : null;
}

/**
 * A badge in the style of shields.io's `flat` badges (20 px high, grey label, coloured message,
 * rounded corners, a faint gradient and text shadow), as an SVG document that renders alone in a
 * browser or inside a README's `<img>`. The text is drawn at 10× and scaled down, as shields.io
 * does, for even glyph placement.
 */
export function certificateBadge(predicate: CertificationPredicate): string {
  const message = badgeMessage(predicate);
  const colour = 'value' in predicate.level ? COLOURS[predicate.level.value] : COLOURS.unstated;
  return badgeSvg(BADGE_LABEL, message, colour);
}

/** The SVG of a two-part flat badge. */
export function badgeSvg(label: string, message: string, colour: string): string {
  const labelText = textWidth(label);
  const messageText = textWidth(message);
  const labelWidth = Math.round(labelText + 10);
  const messageWidth = Math.round(messageText + 10);
  const width = labelWidth + messageWidth;
  const title = escapeXml(`${label}: ${message}`);
  const text = (content: string, centre: number, length: number) => {
    const x = Math.round(centre * 10);
    const size = Math.round(length * 10);
    const safe = escapeXml(content);
    return [
      `<text aria-hidden="true" x="${x}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${size}">${safe}</text>`,
      `<text x="${x}" y="140" transform="scale(.1)" fill="#fff" textLength="${size}">${safe}</text>`,
    ].join('');
  };
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${labelWidth}" height="20" fill="#555"/><rect x="${labelWidth}" width="${messageWidth}" height="20" fill="${colour}"/><rect width="${width}" height="20" fill="url(#s)"/></g>`,
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">',
    text(label, labelWidth / 2, labelText),
    text(message, labelWidth + messageWidth / 2, messageText),
    '</g></svg>',
    '',
  ].join('');
}
