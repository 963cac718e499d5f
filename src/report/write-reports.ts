import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureWritableDir } from './ensure-writable-dir.ts';
import type { CompatibilityReport } from './model.ts';
import { renderHtml } from './render-html.ts';
import { renderJson } from './render-json.ts';
import { renderJunit } from './render-junit.ts';

export interface ReportPaths {
  json: string;
  html: string;
  junit: string;
}

/** Writes compatibility.json (schema-validated), compatibility.html and junit.xml into `dir`. */
export async function writeReports(report: CompatibilityReport, dir: string): Promise<ReportPaths> {
  const paths: ReportPaths = {
    json: join(dir, 'compatibility.json'),
    html: join(dir, 'compatibility.html'),
    junit: join(dir, 'junit.xml'),
  };
  // Render all three first, so a schema mismatch leaves no half-written set behind.
  const json = renderJson(report);
  const html = renderHtml(report);
  const junit = renderJunit(report);
  await ensureWritableDir(dir);
  await Promise.all([
    writeFile(paths.json, json),
    writeFile(paths.html, html),
    writeFile(paths.junit, junit),
  ]);
  return paths;
}
