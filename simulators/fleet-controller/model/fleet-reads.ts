import type { AttentionLedger } from './attention-ledger.ts';
import type { FleetAccess } from './fleet-access.ts';
import type { IngestLinks } from './ingest-links.ts';

/**
 * The parts of the fleet state that the caller views and the attention index read. `FleetState`
 * has them; naming them here keeps the views off `fleet-state.ts`, which builds the index.
 */
export interface FleetReads {
  readonly access: FleetAccess;
  readonly attention: AttentionLedger;
  readonly ingest: IngestLinks;
}
