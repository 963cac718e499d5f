import { writeFileSync } from 'node:fs';
import { loadControlDocuments } from '../simulators/shared/index.ts';
import { CONTROL_DOCUMENTS } from './control-documents.ts';

// Writes the control planes' OpenAPI documents (schemas/*-control.openapi.yaml) from their
// declarations; run it after changing a control operation (`npm run generate:openapi`).
const { controlDocumentText } = await loadControlDocuments();
for (const head of CONTROL_DOCUMENTS) {
  const file = new URL(`../schemas/${head.file}`, import.meta.url);
  writeFileSync(file, controlDocumentText(head));
  process.stdout.write(`schemas/${head.file}\n`);
}
