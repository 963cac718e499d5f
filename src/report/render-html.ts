import type { EvidenceAttachment } from './attachments.ts';
import { escapeHtml as e } from './escape-html.ts';
import type { ClauseResult, CompatibilityReport, InterfaceResult, ScenarioResult, Verdict } from './model.ts';

const VERDICT_LABELS: Record<Verdict, string> = {
  pass: 'pass',
  fail: 'fail',
  'not-verifiable': 'not verifiable',
  'not-run': 'not run',
  'not-covered': 'not covered',
  'not-testable': 'not testable',
};

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:1.5rem;color:#1d1d1f;background:#fff}
h1{font-size:1.6rem;margin:.2rem 0 1rem}h2{font-size:1.3rem;margin:2rem 0 .6rem;border-bottom:2px solid #ddd;padding-bottom:.2rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e5e5e5;vertical-align:top}
th{background:#f5f5f7;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}
.outcome{padding:.7rem 1rem;border-radius:6px;margin:1rem 0;font-weight:600}.outcome ul{font-weight:400;margin:.3rem 0 0}
.outcome.ok{background:#e3f5e1;border:1px solid #7bc47f}.outcome.bad{background:#fde7e7;border:1px solid #e08080}
.badge{display:inline-block;min-width:6.5em;text-align:center;border-radius:4px;padding:.05rem .4rem;font-size:.8rem;font-weight:600;color:#fff}
.v-pass{background:#2e7d32}.v-fail{background:#c62828}.v-not-verifiable{background:#b26a00}.v-not-run{background:#8a8f98}.v-not-covered{background:#6b6b70}.v-not-testable{background:#9e9ea3}
.clause{border:1px solid #e5e5e5;border-left:5px solid #9e9ea3;border-radius:4px;padding:.5rem .8rem;margin:.5rem 0}
.clause.pass{border-left-color:#2e7d32}.clause.fail{border-left-color:#c62828}.clause.not-verifiable{border-left-color:#b26a00}
.id{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:600}.cite,.meta{color:#55555a;font-size:.85rem}
.rule{margin:.3rem 0}.note{font-size:.9rem;margin:.2rem 0}.note.warn{color:#c62828;font-weight:600}
ul.scenarios{margin:.3rem 0;padding-left:1.2rem;font-size:.9rem}
pre{background:#f5f5f7;padding:.5rem;border-radius:4px;overflow:auto;max-height:24rem;white-space:pre-wrap;word-break:break-word;font-size:.8rem}
details{margin:.2rem 0}summary{cursor:pointer}
.bar{display:flex;height:.6rem;width:10rem;border-radius:3px;overflow:hidden;background:#eee}.bar span{display:block;height:100%}
`;

/**
 * reports/compatibility.html: one self-contained page (inline CSS, no scripts, no external assets)
 * made from the same model as the JSON and JUnit reports. Every text from the model is escaped.
 */
export function renderHtml(report: CompatibilityReport): string {
  const { metadata } = report;
  const title = `PBX conformance: ${metadata.target}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${e(title)}</h1>
${renderMetadata(report)}
${renderOutcome(report)}
<h2>Scores</h2>
${renderScores(report.interfaces)}
${renderBaseline(report)}
${renderUntraced(report)}
${report.interfaces.map(renderInterface).join('\n')}
</body>
</html>
`;
}

function renderMetadata(report: CompatibilityReport): string {
  const m = report.metadata;
  const rows: Array<[string, string]> = [
    ['Target', m.targetFile ? `${m.target} (${m.targetFile})` : m.target],
    ['Started', m.startedAt],
    ['Finished', m.finishedAt],
    ['Tool version', m.toolVersion],
    ['Catalog version', String(m.catalogVersion)],
    ['Cucumber', m.cucumberVersion ?? 'unknown'],
    ['Tag filter', m.tagExpression ?? 'none'],
    [
      'Scenarios',
      `${report.scenarios.total} run: ${report.scenarios.passed} passed, ${report.scenarios.failed} failed, ` +
        `${report.scenarios.skipped} skipped, ${report.scenarios.other} other`,
    ],
  ];
  return `<table class="metadata">${rows.map(([k, v]) => `<tr><th>${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</table>`;
}

function renderOutcome(report: CompatibilityReport): string {
  if (report.outcome.passed) {
    return '<div class="outcome ok">Passed: no unexpected failure, no unexpected pass.</div>';
  }
  const reasons = report.outcome.reasons.map((reason) => `<li>${e(reason)}</li>`).join('');
  return `<div class="outcome bad">Failed<ul>${reasons}</ul></div>`;
}

function renderScores(interfaces: InterfaceResult[]): string {
  const head =
    '<tr><th>Interface</th><th>Score</th><th></th><th>pass</th><th>fail</th><th>not verifiable</th><th>not run</th><th>not covered</th><th>not testable</th></tr>';
  const rows = interfaces.map((i) => {
    const c = i.counts;
    return (
      `<tr><td><a href="#if-${e(i.id)}" class="id">${e(i.id)}</a></td>` +
      `<td class="num">${i.score.passed}/${i.score.testable}</td><td>${bar(i)}</td>` +
      `<td class="num">${c.pass}</td><td class="num">${c.fail}</td><td class="num">${c['not-verifiable']}</td>` +
      `<td class="num">${c['not-run']}</td><td class="num">${c['not-covered']}</td><td class="num">${c['not-testable']}</td></tr>`
    );
  });
  return `<table>${head}${rows.join('')}</table>`;
}

function bar(i: InterfaceResult): string {
  const total = i.score.testable || 1;
  const part = (n: number, color: string): string =>
    n > 0 ? `<span style="width:${((n / total) * 100).toFixed(1)}%;background:${color}"></span>` : '';
  return `<div class="bar" aria-hidden="true">${part(i.counts.pass, '#2e7d32')}${part(i.counts.fail, '#c62828')}${part(i.counts['not-verifiable'], '#b26a00')}</div>`;
}

function renderBaseline(report: CompatibilityReport): string {
  const b = report.baseline;
  const list = (label: string, ids: string[]): string =>
    ids.length === 0
      ? ''
      : `<p>${e(label)}: ${ids.map((id) => `<a class="id" href="#${e(id)}">${e(id)}</a>`).join(', ')}</p>`;
  return `<h2>Expected failures</h2>
<p class="meta">Baseline file: ${e(b.present ? b.file : `${b.file} (absent: no failure is expected)`)}</p>
${list('Expected failures (still failing)', b.expectedFailures)}
${list('Unexpected failures (not listed)', b.unexpectedFailures)}
${list('Listed but now passing (remove from the baseline)', b.unexpectedPasses)}
${list('Listed but not judged in this run', b.listedNotRun)}`;
}

function renderUntraced(report: CompatibilityReport): string {
  if (report.untracedScenarios.length === 0) return '';
  const items = report.untracedScenarios
    .map((s) => `<li>${e(s.name)} <span class="meta">${e(`${s.uri}:${s.line}`)} — ${e(s.status)}</span></li>`)
    .join('');
  return `<h2>Scenarios citing no catalog clause</h2><ul class="scenarios">${items}</ul>`;
}

function renderInterface(i: InterfaceResult): string {
  return `<section id="if-${e(i.id)}">
<h2>${e(i.id)} — ${i.score.passed}/${i.score.testable} testable clauses pass</h2>
${i.clauses.map(renderClause).join('\n')}
</section>`;
}

function renderClause(clause: ClauseResult): string {
  const notes: string[] = [];
  if (clause.reason) notes.push(`<p class="note">Not verifiable: ${e(clause.reason)}</p>`);
  if (clause.baseline) {
    const warn =
      clause.baseline.status === 'unexpected-failure' || clause.baseline.status === 'unexpected-pass';
    const reason = clause.baseline.reason ? `: ${clause.baseline.reason}` : '';
    notes.push(`<p class="note${warn ? ' warn' : ''}">Baseline: ${e(clause.baseline.status + reason)}</p>`);
  }
  const scenarios =
    clause.scenarios.length === 0
      ? ''
      : `<ul class="scenarios">${clause.scenarios.map(renderScenario).join('')}</ul>`;
  return `<div class="clause ${e(clause.verdict)}" id="${e(clause.id)}">
<span class="badge v-${e(clause.verdict)}">${e(VERDICT_LABELS[clause.verdict])}</span> <span class="id">${e(clause.id)}</span>
<span class="meta">${e(clause.check)}${clause.property ? ', property' : ''}</span>
<p class="rule">${e(clause.rule)}</p>
<p class="cite">${e(clause.spec)} § ${e(clause.section)}</p>
${notes.join('\n')}${scenarios}
</div>`;
}

function renderScenario(s: ScenarioResult): string {
  const head = `${e(s.name)} <span class="meta">${e(`${s.uri}:${s.line}`)} — ${e(s.status)}, ${s.durationMs} ms</span>`;
  const parts: string[] = [];
  if (s.notVerifiableReason) parts.push(`<p class="note">Not verifiable: ${e(s.notVerifiableReason)}</p>`);
  if (s.failure) {
    parts.push(`<details><summary>Failure at <code>${e(s.failure.step)}</code></summary>
<pre>${e(s.failure.message)}</pre>
${s.evidence.map(renderEvidence).join('\n')}
</details>`);
  } else if (s.evidence.length > 0) {
    parts.push(
      `<details><summary>Evidence (${s.evidence.length})</summary>${s.evidence.map(renderEvidence).join('\n')}</details>`,
    );
  }
  return `<li>${head}${parts.join('')}</li>`;
}

function renderEvidence(evidence: EvidenceAttachment): string {
  const blocks = [`<p class="note">Exchange: <code>${e(evidence.exchange)}</code></p>`];
  if (evidence.request !== undefined)
    blocks.push(`<p class="note">Request</p><pre>${e(evidence.request)}</pre>`);
  if (evidence.response !== undefined)
    blocks.push(`<p class="note">Response</p><pre>${e(evidence.response)}</pre>`);
  if (evidence.details !== undefined) {
    blocks.push(`<p class="note">Details</p><pre>${e(JSON.stringify(evidence.details, null, 2))}</pre>`);
  }
  return blocks.join('\n');
}
