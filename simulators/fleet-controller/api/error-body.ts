/** Error codes interface B answers with a body (FLEET-ERROR-OBJECT), plus the simulator's own. */
export type FleetErrorCode = 'invalid_request' | 'forbidden' | 'payload_too_large';

/** The error object of interface B: a code and a German message (schemas/fleet/error.schema.json). */
export interface FleetError {
  error: FleetErrorCode;
  message: string;
}

/**
 * FLEET-UNSPEC-MESSAGE-TEXTS: the simulator's German texts. Scenarios assert only that `message`
 * is a non-empty string, never these words.
 */
export const MESSAGES = {
  commentTooLong: 'Der Kommentar darf höchstens 1000 Zeichen lang sein.',
  commentNotString: 'Der Kommentar muss ein Text sein.',
  bodyNotJson: 'Der Inhalt der Anfrage ist kein gültiges JSON.',
  bodyNotObject: 'Der Inhalt der Anfrage muss ein JSON-Objekt sein.',
  contentType: 'Der Inhalt der Anfrage muss als application/json gesendet werden.',
  viewerForbidden: 'Mit der Rolle Betrachter können Meldungen nicht bestätigt werden.',
  levelForbidden:
    'Konto und Zugriffstoken benötigen die Stufe Lesen und Schreiben, um Meldungen zu bestätigen.',
  tooLarge: 'Der Inhalt der Anfrage ist zu groß.',
  notFound: 'Die Meldung wurde nicht gefunden.',
} as const;

export function fleetError(error: FleetErrorCode, message: string): FleetError {
  return { error, message };
}
