/** A provider's number format (web-resolver.md, "Number formats"). */
export type NumberFormatName = '+xx' | '00xx' | '0';

/** A national number of the PBX's country: country code and national number without its leading 0. */
export interface NationalNumber {
  countryCode: string;
  /** The national significant number: digits, first one not 0. */
  significant: string;
}

/**
 * The renderings a format allows for a national number, written from the spec alone
 * (independently of the simulator): `+xx` is `+`, country code, national number without leading
 * zero (RESOLVER-FMT-PLUS); `0` is `0` and the national number (RESOLVER-FMT-0); `00xx` is `00`,
 * country code and national number (RESOLVER-FMT-00), where RESOLVER-UNSPEC-NUMBER-CASES leaves
 * open whether the national leading zero is dropped, so both forms are accepted.
 */
export function acceptedRenderings(number: NationalNumber, format: NumberFormatName): string[] {
  const { countryCode, significant } = number;
  switch (format) {
    case '+xx':
      return [`+${countryCode}${significant}`];
    case '00xx':
      return [`00${countryCode}${significant}`, `00${countryCode}0${significant}`];
    case '0':
      return [`0${significant}`];
  }
}

/**
 * Every form a national number written as `0…` (separators allowed, e.g. `030 1234567`) can take:
 * as written, and each accepted rendering of `+xx`, `00xx` and `0`. For whatever the spec leaves
 * open about the number an address-book entry is kept under.
 */
export function everyNumberForm(national: string, countryCode: string): string[] {
  const significant = national.replace(/\D/g, '').replace(/^0/, '');
  const number = { countryCode, significant };
  return [
    ...new Set([
      national,
      ...acceptedRenderings(number, '+xx'),
      ...acceptedRenderings(number, '00xx'),
      ...acceptedRenderings(number, '0'),
    ]),
  ];
}

/** How a caller number can be handed to the PBX: in national form or in one of the international ones. */
export type InputForm = 'national' | 'plus' | 'double-zero';

export function inputNumber(number: NationalNumber, form: InputForm): string {
  switch (form) {
    case 'national':
      return `0${number.significant}`;
    case 'plus':
      return `+${number.countryCode}${number.significant}`;
    case 'double-zero':
      return `00${number.countryCode}${number.significant}`;
  }
}

/**
 * Reads a rendering back to the national number it stands for (the round trip between the
 * formats): every accepted rendering of `number` in any format reads back to `number`.
 */
export function readBack(rendering: string, countryCode: string): string | null {
  if (rendering.startsWith('+'))
    return rendering.startsWith(`+${countryCode}`) ? rendering.slice(1 + countryCode.length) : null;
  if (rendering.startsWith('00')) {
    if (!rendering.startsWith(`00${countryCode}`)) return null;
    const rest = rendering.slice(2 + countryCode.length);
    return rest.startsWith('0') ? rest.slice(1) : rest;
  }
  if (rendering.startsWith('0')) return rendering.slice(1);
  return null;
}
