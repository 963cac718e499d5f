import { escapeUTF8 } from 'entities';
import { COMPACT_HEAD_BYTES, type EvidenceAttachment } from './attachments.ts';
import { readEvidenceHeads, utf8Head } from './compact-evidence.ts';
import type { ClauseResult, CompatibilityReport, InterfaceResult, ScenarioResult, Verdict } from './model.ts';
import { escapedBytes, reproduceCommands } from './reproduce.ts';
import { isNotRun, scoreText } from './score-text.ts';

/**
 * The one escaping rule of the project's HTML: `entities`' `escapeUTF8` (`&`, `<`, `>`, `"`, `'`),
 * for element content and quoted attribute values alike.
 */
const e = escapeUTF8;

/**
 * Prose of the catalog and the harness (rules, reasons, outcome lines) escaped, with its Markdown
 * code spans (`` `pbx.controlUrl` ``) rendered as `<code>`: nothing else of Markdown is used there.
 */
function md(text: string): string {
  return text
    .split(/`([^`\n]+)`/)
    .map((part, index) => (index % 2 === 1 ? `<code>${e(part)}</code>` : e(part)))
    .join('');
}

const VERDICT_LABELS: Record<Verdict, string> = {
  pass: 'pass',
  warn: 'warning',
  fail: 'fail',
  'not-verifiable': 'not verifiable',
  'not-run': 'not run',
  'not-covered': 'not covered',
  'not-testable': 'not testable',
};

/** How many exchanges of a passing scenario are named (their bodies are left to the JSON report). */
const PASS_EXCHANGES_SHOWN = 3;

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1200px;padding:1.5rem;color:#1d1d1f;background:#fff}
h1{font-size:1.6rem;margin:.2rem 0 1rem}h2{font-size:1.3rem;margin:2rem 0 .6rem;border-bottom:2px solid #ddd;padding-bottom:.2rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e5e5e5;vertical-align:top}
th{background:#f5f5f7;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}td.idle{color:#5f6670;font-style:italic}
.outcome{padding:.7rem 1rem;border-radius:6px;margin:1rem 0;font-weight:600}.outcome ul{font-weight:400;margin:.3rem 0 0}
.outcome.ok{background:#e3f5e1;border:1px solid #7bc47f}.outcome.bad{background:#fde7e7;border:1px solid #e08080}
.badge{display:inline-block;min-width:6.5em;text-align:center;border-radius:4px;padding:.05rem .4rem;font-size:.8rem;font-weight:600;color:#fff}
.v-pass{background:#2e7d32}.v-warn{background:#e0a800;color:#1d1d1f}.v-fail{background:#c62828}.v-not-verifiable{background:#b26a00}.v-not-run{background:#fff;color:#6b6b70;border:1px dashed #8a8f98}.v-not-covered{background:#6b6b70}.v-not-testable{background:#9e9ea3}.v-flaky{background:#6a1b9a}
.clause{border:1px solid #e5e5e5;border-left:5px solid #9e9ea3;border-radius:4px;padding:.5rem .8rem;margin:.5rem 0}
.clause.pass{border-left-color:#2e7d32}.clause.fail{border-left-color:#c62828}.clause.not-verifiable{border-left-color:#b26a00}.clause.not-run{border-left-style:dashed}
.reasons li{margin:.3rem 0}.reasons .ids{font-size:.85rem}
.id{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:600}.cite,.meta{color:#55555a;font-size:.85rem}
.rule{margin:.3rem 0}.note{font-size:.9rem;margin:.2rem 0}.note.warn{color:#c62828;font-weight:600}
ul.scenarios{margin:.3rem 0;padding-left:1.2rem;font-size:.9rem}
pre{background:#f5f5f7;padding:.5rem;border-radius:4px;overflow:auto;max-height:24rem;white-space:pre-wrap;word-break:break-word;font-size:.8rem;margin:.2rem 0}
pre.cmd{background:#1d1d1f;color:#f5f5f7}
.wire{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}.wire>div{min-width:0}
details{margin:.2rem 0}summary{cursor:pointer}
.bar{display:flex;height:.6rem;width:10rem;border-radius:3px;overflow:hidden;background:#eee}.bar span{display:block;height:100%}
#filters{position:sticky;top:0;background:#fff;padding:.5rem 0;border-bottom:1px solid #e5e5e5;display:flex;gap:1rem;flex-wrap:wrap;align-items:center}
.hidden{display:none}
`;

/** Filters clause cards by verdict and interface and searches ids; no dependency, no network. */
const SCRIPT = `
(function(){
  var v=document.getElementById('f-verdict'),i=document.getElementById('f-interface'),q=document.getElementById('f-search'),n=document.getElementById('f-count');
  function apply(){
    var shown=0,cards=document.querySelectorAll('.clause'),text=q.value.trim().toUpperCase();
    for(var k=0;k<cards.length;k++){var c=cards[k];
      var ok=(!v.value||c.dataset.verdict===v.value)&&(!i.value||c.dataset.interface===i.value)&&(!text||c.dataset.id.indexOf(text)>=0);
      c.classList.toggle('hidden',!ok);if(ok)shown++;}
    n.textContent=shown+' shown';
  }
  v.addEventListener('change',apply);i.addEventListener('change',apply);q.addEventListener('input',apply);apply();
})();
`;

/**
 * reports/compatibility.html: one self-contained page (inline CSS and script, no external
 * assets) made from the same model as the JSON and JUnit reports. Above the fold: the outcome and
 * the score per interface; then what failed (full evidence, the raw exchange as escaped bytes
 * beside the decoded view, the spec rule and the commands that reproduce just that clause), then
 * the reasons clauses were not verifiable, each reason once with the clauses it concerns, then
 * every clause per interface, where passing scenarios only name their exchanges. Every text from
 * the model is escaped; Markdown code spans in prose become `<code>`.
 */
export function renderHtml(report: CompatibilityReport): string {
  const { metadata } = report;
  const title = `PBX conformance: ${metadata.target}`;
  const clauses = report.interfaces.flatMap((i) => i.clauses);
  // Unexpected failures before the expected ones (the baseline lists those).
  const failures = clauses
    .filter((c) => c.verdict === 'fail' || c.repeat?.stability === 'flaky')
    .sort(
      (a, b) =>
        Number(a.baseline?.status === 'expected-failure') - Number(b.baseline?.status === 'expected-failure'),
    );
  const notVerifiable = clauses.filter((c) => c.verdict === 'not-verifiable');
  const rest = report.interfaces.map((i) => ({
    ...i,
    clauses: i.clauses.filter((c) => c.verdict !== 'fail' && c.repeat?.stability !== 'flaky'),
  }));
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
${renderOutcome(report)}
${renderCertification(report)}
${renderSandbox(report)}
<h2 id="scores">Scores</h2>
${renderScores(report.interfaces)}
${renderFilters(report)}
<h2 id="failures">Failures (${failures.length})</h2>
${failures.length === 0 ? '<p class="meta">No clause failed.</p>' : failures.map((c) => renderClause(c, report, 'full')).join('\n')}
<h2 id="not-verifiable">Not verifiable (${notVerifiable.length})</h2>
${renderNotVerifiable(notVerifiable)}
${renderBaseline(report)}
${renderUntraced(report)}
<h2>Run</h2>
${renderMetadata(report)}
${rest
  .filter((i) => i.clauses.length > 0)
  .map((i) => renderInterface(i, report))
  .join('\n')}
${renderEvidenceHeads(report)}
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function renderFilters(report: CompatibilityReport): string {
  const verdicts = ['', ...Object.keys(VERDICT_LABELS)]
    .map(
      (v) =>
        `<option value="${e(v)}">${e(v === '' ? 'every verdict' : VERDICT_LABELS[v as Verdict])}</option>`,
    )
    .join('');
  const faces = ['', ...report.interfaces.map((i) => i.id)]
    .map((id) => `<option value="${e(id)}">${e(id === '' ? 'every interface' : id)}</option>`)
    .join('');
  return `<div id="filters"><label>Verdict <select id="f-verdict">${verdicts}</select></label>
<label>Interface <select id="f-interface">${faces}</select></label>
<label>Clause id <input id="f-search" type="search" placeholder="e.g. MON-AUTH"></label>
<span class="meta" id="f-count"></span></div>`;
}

function renderMetadata(report: CompatibilityReport): string {
  const m = report.metadata;
  const rows: Array<[string, string]> = [
    ['Target', m.targetFile ? `${m.target} (${m.targetFile})` : m.target],
    ['Started', m.startedAt],
    ['Finished', m.finishedAt],
    ['Tool version', m.toolVersion],
    ['Catalog', `format ${m.catalogVersion} ${m.catalogFingerprint}`],
    ['Cucumber', m.cucumberVersion ?? 'unknown'],
    ['Tag filter', m.tagExpression ?? 'none'],
    ...(m.run ? [['Run', runText(m.run)] as [string, string]] : []),
    [
      'Scenarios',
      `${report.scenarios.total} run: ${report.scenarios.passed} passed, ${report.scenarios.failed} failed, ` +
        `${report.scenarios.skipped} skipped, ${report.scenarios.other} other`,
    ],
  ];
  return `<table class="metadata">${rows.map(([k, v]) => `<tr><th>${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</table>`;
}

/** certify-plugin's level and coverage, and plainly what was not certified. */
function renderCertification(report: CompatibilityReport): string {
  const c = report.certification;
  if (!c) return '';
  const v = c.coverage;
  const lines = [
    ...c.notCertified.map((line) => `<li>not certified: ${e(line)}</li>`),
    ...c.warnings.map((line) => `<li>warning: ${e(line)}</li>`),
  ];
  return `<div class="certification"><p><strong>Level: ${e(c.level)}</strong> <span class="meta">${v.declared} of ${v.labels} labels declared, ${v.tracked} tracked, ${v.notTraced} not traced; ${v.watched} watched services</span></p>${lines.length > 0 ? `<ul>${lines.join('')}</ul>` : ''}</div>`;
}

/** `run-… shard 2/3`, or `run-… merged from shards 1, 2 of 3 (PARTIAL: shard 3/3 missing)`. */
function runText(run: NonNullable<CompatibilityReport['metadata']['run']>): string {
  if (run.shard) return `${run.id}, shard ${run.shard.index}/${run.shard.total}`;
  const merged = run.merged;
  if (!merged) return run.id;
  const missing = Array.from({ length: merged.total }, (_, i) => i + 1).filter(
    (i) => !merged.shards.includes(i),
  );
  return `${run.id}, merged from shards ${merged.shards.join(', ')} of ${merged.total}${merged.partial ? ` (PARTIAL: shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing)` : ''}`;
}

function renderOutcome(report: CompatibilityReport): string {
  const s = report.scenarios;
  const tally = `${s.total} scenarios: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${s.other ? `, ${s.other} other` : ''}`;
  if (report.outcome.passed) {
    return `<div class="outcome ok">Passed: no unexpected failure, no unexpected pass. <span class="meta">${e(tally)}</span></div>`;
  }
  const reasons = report.outcome.reasons.map((reason) => `<li>${md(reason)}</li>`).join('');
  return `<div class="outcome bad">Failed <span class="meta">${e(tally)}</span><ul>${reasons}</ul></div>`;
}

/** certify-plugin: whether the plug-in's runs were sealed, and each protection absent (issue 28 §4). */
function renderSandbox(report: CompatibilityReport): string {
  const sandbox = report.sandbox;
  if (!sandbox) return '';
  const items = sandbox.protections
    .map(
      (p) =>
        `<li>${p.present ? 'present' : '<strong>absent</strong>'}: <code>${e(p.name)}</code>, ${e(p.description)}</li>`,
    )
    .join('');
  const head = sandbox.sealed
    ? `Sealed run (${e(sandbox.tool ?? 'sandbox')}): every protection present.`
    : `Not sealed: ${e(sandbox.reason ?? 'no sandbox')}`;
  return `<div id="sandbox" class="outcome ${sandbox.sealed ? 'ok' : 'bad'}">${head}<ul>${items}</ul></div>`;
}

function renderScores(interfaces: InterfaceResult[]): string {
  const head =
    '<tr><th>Interface</th><th>Score</th><th></th><th>pass</th><th>warning</th><th>fail</th><th>not verifiable</th><th>not run</th><th>not covered</th><th>not testable</th></tr>';
  const rows = interfaces.map((i) => {
    const c = i.counts;
    // Nothing verified (left out by --tags, or not verifiable on this target): "not run", never a 0/61.
    const score = isNotRun(i)
      ? `<td class="idle" colspan="2">${scoreText(i)}</td>`
      : `<td class="num">${scoreText(i)}</td><td>${bar(i)}</td>`;
    return (
      `<tr><td><a href="#if-${e(i.id)}" class="id">${e(i.id)}</a></td>${score}` +
      `<td class="num">${c.pass}</td><td class="num">${c.warn}</td><td class="num">${c.fail}</td><td class="num">${c['not-verifiable']}</td>` +
      `<td class="num">${c['not-run']}</td><td class="num">${c['not-covered']}</td><td class="num">${c['not-testable']}</td></tr>`
    );
  });
  return `<table>${head}${rows.join('')}</table>`;
}

/**
 * The not-verifiable clauses grouped by reason, each reason once (most clauses first) with links
 * to its clauses' cards: a real target without a control plane has dozens of clauses with the
 * same few reasons.
 */
function renderNotVerifiable(clauses: readonly ClauseResult[]): string {
  if (clauses.length === 0) return '<p class="meta">Every selected clause could be verified.</p>';
  const byReason = new Map<string, ClauseResult[]>();
  for (const clause of clauses) {
    const reason = clause.reason ?? 'no reason given';
    byReason.set(reason, [...(byReason.get(reason) ?? []), clause]);
  }
  const items = [...byReason]
    .sort(([, a], [, b]) => b.length - a.length)
    .map(
      ([reason, list]) =>
        `<li>${md(reason)}<div class="ids meta">${list.length} clause${list.length === 1 ? '' : 's'}: ${list.map((c) => `<a class="id" href="#${e(c.id)}">${e(c.id)}</a>`).join(', ')}</div></li>`,
    );
  return `<ul class="reasons">${items.join('')}</ul>`;
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
${list('Listed but not judged in this run', b.listedNotRun)}
${list('Listed until a day that has passed (excuse nothing)', b.expired ?? [])}`;
}

function renderUntraced(report: CompatibilityReport): string {
  if (report.untracedScenarios.length === 0) return '';
  const items = report.untracedScenarios
    .map((s) => `<li>${e(s.name)} <span class="meta">${e(`${s.uri}:${s.line}`)} — ${e(s.status)}</span></li>`)
    .join('');
  return `<h2>Scenarios citing no catalog clause</h2><ul class="scenarios">${items}</ul>`;
}

function renderInterface(i: InterfaceResult, report: CompatibilityReport): string {
  return `<section id="if-${e(i.id)}">
<h2>${e(i.id)} — ${isNotRun(i) ? 'not run' : `${scoreText(i)} testable clauses pass`}</h2>
${i.clauses.map((c) => renderClause(c, report, 'trimmed')).join('\n')}
</section>`;
}

function renderClause(clause: ClauseResult, report: CompatibilityReport, detail: 'full' | 'trimmed'): string {
  const notes: string[] = [];
  if (clause.reason) notes.push(`<p class="note">Not verifiable: ${md(clause.reason)}</p>`);
  if (clause.repeat) {
    notes.push(
      `<p class="note${clause.repeat.stability === 'flaky' ? ' warn' : ''}">Across ${clause.repeat.verdicts.length} runs: ${e(clause.repeat.stability.replace('-', ' '))} (${e(clause.repeat.verdicts.join(', '))})</p>`,
    );
  }
  if (clause.baseline) {
    const warn =
      clause.baseline.status === 'unexpected-failure' || clause.baseline.status === 'unexpected-pass';
    const reason = clause.baseline.reason ? `: ${clause.baseline.reason}` : '';
    notes.push(`<p class="note${warn ? ' warn' : ''}">Baseline: ${e(clause.baseline.status + reason)}</p>`);
  }
  if (detail === 'full') {
    const evidence = clause.scenarios.flatMap((s) => (s.failure ? s.evidence : []));
    const failed = clause.scenarios.flatMap((s) => (s.failure ? [s.name] : []));
    const commands = reproduceCommands(clause.id, report.metadata, evidence, failed);
    notes.push(
      `<p class="note">Reproduce just this clause</p><pre class="cmd">${e(commands.join('\n'))}</pre>`,
    );
  }
  const scenarios =
    clause.scenarios.length === 0
      ? ''
      : `<ul class="scenarios">${clause.scenarios.map((s) => renderScenario(s, detail, clause.reason)).join('')}</ul>`;
  return `<div class="clause ${e(clause.verdict)}" id="${e(clause.id)}" data-id="${e(clause.id)}" data-verdict="${e(clause.verdict)}" data-interface="${e(clause.interface)}">
<span class="badge v-${e(clause.verdict)}">${e(VERDICT_LABELS[clause.verdict])}</span>${clause.repeat?.stability === 'flaky' ? ' <span class="badge v-flaky">flaky</span>' : ''} <span class="id">${e(clause.id)}</span>
<span class="meta">${e(clause.check)}${clause.property ? ', property' : ''}</span>
<p class="rule">${md(clause.rule)}</p>
<p class="cite">${e(clause.spec)} § ${e(clause.section)}</p>
${notes.join('\n')}${scenarios}
</div>`;
}

function renderScenario(s: ScenarioResult, detail: 'full' | 'trimmed', clauseReason?: string): string {
  const head = `${e(s.name)} <span class="meta">${e(`${s.uri}:${s.line}`)} — ${e(s.status)}, ${s.durationMs} ms</span>`;
  const parts: string[] = [];
  // The clause's card already says its reason once; a scenario repeats only a reason of its own.
  if (s.notVerifiableReason && !clauseReason?.includes(s.notVerifiableReason))
    parts.push(`<p class="note">Not verifiable: ${md(s.notVerifiableReason)}</p>`);
  if (s.failure) {
    // A failure keeps its evidence in full wherever it is shown: the failed step and message
    // open, the exchanges on the wire collapsed under one summary (a native <details>: Enter or
    // Space opens it, no script needed).
    parts.push(`<p class="note">Failed at <code>${e(s.failure.step)}</code></p>
<pre>${e(s.failure.message)}</pre>${renderEvidence(s.evidence)}`);
  } else if (s.evidence.length > 0) {
    const named = s.evidence.slice(0, detail === 'full' ? s.evidence.length : PASS_EXCHANGES_SHOWN);
    const more = s.evidence.length - named.length;
    parts.push(
      `<p class="meta">Exchanges: ${named.map((x) => `<code>${e(x.exchange)}</code>`).join(', ')}${more > 0 ? ` and ${more} more` : ''}${passHead(s)}</p>`,
    );
  }
  return `<li>${head}${parts.join('')}</li>`;
}

/** Anchor of a distinct evidence head in the page (issue 29, item 17). */
const headAnchor = (key: string) => `h-${key.slice(0, 8)}`;

/** Bytes of each distinct head the page shows; the JSON report keeps its first 2 KiB. */
const HEAD_PREVIEW_BYTES = 100;

/** A pass's first bytes: a link to its head, shown once below; an inline head of an older report here. */
function passHead(s: ScenarioResult): string {
  const first = s.evidence[0];
  if (!first || !('form' in first) || first.form !== 'compact') return '';
  if (first.headSha256) return ` <a href="#${headAnchor(first.headSha256)}">head</a>`;
  if (first.head !== undefined)
    return `</p><details class="evidence"><summary>First bytes of the answer</summary><pre>${e(first.head)}</pre></details><p class="meta">`;
  return '';
}

/**
 * The first bytes of the passes' answers, each distinct one once (`evidenceHeads` of the JSON,
 * issue 29 item 17); each pass links to its own. The page shows the start of each, the JSON
 * report the first 2 KiB: every head in full would take the page past its 600 KB.
 */
function renderEvidenceHeads(report: CompatibilityReport): string {
  const heads = Object.entries(readEvidenceHeads(report));
  if (heads.length === 0) return '';
  const items = heads.map(([key, head]) => {
    const shown = utf8Head(head, HEAD_PREVIEW_BYTES);
    return `<pre id="${headAnchor(key)}">${e(shown)}${shown.length < head.length ? ' …' : ''}</pre>`;
  });
  return `<h2 id="evidence-heads">First bytes of the passes' answers (${heads.length} distinct)</h2>
<p class="meta">The start of the first answer of each passing scenario, each distinct one once; compatibility.json keeps the first ${COMPACT_HEAD_BYTES} bytes of each (<code>evidenceHeads</code>, by SHA-256), and the bodies of passes are left to <code>verify --evidence full</code>.</p>
${items.join('\n')}`;
}

/** A failure's exchanges, collapsed: the summary names them, the bytes expand. */
function renderEvidence(evidence: readonly EvidenceAttachment[]): string {
  if (evidence.length === 0) return '';
  const count = `${evidence.length} exchange${evidence.length === 1 ? '' : 's'}`;
  const names = evidence.map((x) => e(x.exchange)).join(', ');
  return `
<details class="evidence"><summary>Evidence: ${count} (${names})</summary>
${evidence.map(renderWire).join('\n')}
</details>`;
}

/** One exchange of a failure: the bytes as sent and received (escaped) beside the decoded text. */
function renderWire(evidence: EvidenceAttachment): string {
  const blocks = [`<p class="note">Exchange: <code>${e(evidence.exchange)}</code></p>`];
  for (const [label, body] of [
    ['Request', evidence.request],
    ['Response', evidence.response],
  ] as const) {
    if (body === undefined) continue;
    blocks.push(`<div class="wire"><div><p class="meta">${label}, raw bytes (escaped)</p><pre>${e(escapedBytes(body))}</pre></div>
<div><p class="meta">${label}, decoded</p><pre>${e(body)}</pre></div></div>`);
  }
  if (evidence.details !== undefined) {
    blocks.push(`<p class="meta">Details</p><pre>${e(JSON.stringify(evidence.details, null, 2))}</pre>`);
  }
  return blocks.join('\n');
}
