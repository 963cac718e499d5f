/** Frequent German words, of which error messages use some (articles, modal verbs, negations, nouns). */
const GERMAN_WORDS = new Set(
  (
    'der das den dem des ein eine einen einem einer eines kein keine keinen nicht nur ist sind ' +
    'wird werden wurde wurden darf dürfen kann können muss müssen soll sollen haben mit ohne für ' +
    'von vom zu zum zur auf bei und oder aus als im bitte diese dieser dieses sie ' +
    'ungültig ungültige ungültiger ungültiges unbekannt unbekannte fehlt fehlende fehler zugriff ' +
    'verweigert verboten berechtigung berechtigt anfrage anmeldung kommentar zeichen höchstens lang ' +
    'meldung meldungen rolle betrachter bestätigen bestätigt erlaubt nicht gefunden standort'
  ).split(' '),
);

/**
 * Whether `text` reads as German (FLEET-ERROR-OBJECT: `message` is German text). The wording is not
 * stated (FLEET-UNSPEC-MESSAGE-TEXTS), so this asks only for a German letter (ä ö ü ß) or one of
 * the frequent German words above (none of them an English word); an English or empty text has neither.
 */
export function looksGerman(text: string): boolean {
  if (/[äöüÄÖÜß]/.test(text)) return true;
  const words = text.toLowerCase().match(/[a-zäöüß]+/g) ?? [];
  return words.some((w) => GERMAN_WORDS.has(w));
}
