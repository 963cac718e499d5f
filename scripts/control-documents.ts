import { ENDPOINT_CONTROL_DOCUMENT } from '../simulators/customer-endpoint/index.ts';
import { FLEET_CONTROL_DOCUMENT } from '../simulators/fleet-controller/index.ts';
import { PBX_CONTROL_DOCUMENT } from '../simulators/pbx/index.ts';
import type { ControlDocumentHead } from '../simulators/shared/index.ts';

/**
 * The control planes whose OpenAPI documents under `schemas/` are generated from their
 * declarations: `npm run generate:openapi` writes them, and a test fails when a committed one
 * differs from what the declarations give (test/simulators/shared/control/generated-openapi.test.ts).
 */
export const CONTROL_DOCUMENTS: readonly ControlDocumentHead[] = [
  PBX_CONTROL_DOCUMENT,
  FLEET_CONTROL_DOCUMENT,
  ENDPOINT_CONTROL_DOCUMENT,
];
