/**
 * Bad input to the control plane (wrong type, out of range, unknown scenario or fault). The HTTP
 * control server answers it with `400 { error: 'invalid_request', message }`; the message is one
 * line and never carries a secret.
 */
export class ControlInputError extends Error {
  constructor(message: string) {
    super(message.replace(/\s*[\r\n]+\s*/g, ' '));
    this.name = 'ControlInputError';
  }
}
