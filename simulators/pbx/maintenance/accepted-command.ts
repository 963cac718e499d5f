import type { CommandName } from './command-names.ts';
import type { BodyKind, CommandParameters } from './command-parameters.ts';

/** A command the API has accepted and handed over to the executor. */
export interface AcceptedCommand {
  /** 1, 2, … within one executor. */
  id: number;
  command: CommandName;
  parameters: CommandParameters;
  /** How the request body was read (an invalid body means no parameters). */
  body: BodyKind;
  /** Virtual-clock epoch ms. */
  acceptedAt: number;
}
