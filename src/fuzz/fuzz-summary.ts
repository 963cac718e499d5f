import type { FuzzResult, GeneratorOutcome } from './run-fuzz.ts';

const MB = 1024 * 1024;

/** The totals per face, the memory figures and every failure with its replay lines. */
export function formatFuzzSummary(
  result: FuzzResult,
  failureText: (generator: GeneratorOutcome) => string,
): string {
  const lines = ['', 'face          inputs  crashes  hangs  5xx  mismatches'];
  for (const t of result.totals) {
    lines.push(
      `${t.face.padEnd(12)} ${String(t.inputs).padStart(7)}  ${String(t.crashes).padStart(7)}  ${String(t.hangs).padStart(5)}  ${String(t.fiveXx).padStart(3)}  ${String(t.mismatches).padStart(10)}`,
    );
  }
  const { start, peak, after } = result.rss;
  if (start !== null && peak !== null && after !== null) {
    lines.push(
      `server RSS: start ${(start / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB, after ${(after / MB).toFixed(0)} MB (${after - start >= 0 ? '+' : ''}${((after - start) / MB).toFixed(0)} MB)`,
    );
  }
  for (const g of result.generators) {
    if (g.status === 'not-verifiable') lines.push(`not verifiable: ${g.id}: ${g.reason ?? ''}`);
  }
  for (const g of result.generators) {
    if (g.status !== 'failed') continue;
    lines.push(`FAILED ${g.id} [${g.clauses.join(', ') || 'no clause'}]`);
    for (const line of failureText(g).split('\n')) lines.push(`  ${line}`);
  }
  const failed = result.generators.filter((g) => g.status === 'failed').length;
  lines.push(failed === 0 ? 'PASSED' : `FAILED (${failed} generator(s))`);
  return `${lines.join('\n')}\n`;
}
