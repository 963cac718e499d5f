import type { LocalCheck, Metric } from './local-checks.ts';
import { formatNumber } from './text-safety.ts';

/**
 * One `<<<local>>>` line, `<status> "<name>" <metrics or -> <text>` (MON-LOCAL-LINE-SHAPE). The
 * check is expected to be sanitised already (`localChecks` does it); metric names are the
 * renderer's own constants (no space, `:`, `/`, `\`).
 */
export function formatLocalLine(check: LocalCheck): string {
  const metrics = check.metrics.length === 0 ? '-' : check.metrics.map(formatMetric).join('|');
  const line = `${check.status} "${check.name}" ${metrics}`;
  return check.text === '' ? line : `${line} ${check.text}`;
}

/** `name=value;warn;crit;min;max`, trailing empty fields left out, inner ones left empty. */
export function formatMetric(metric: Metric): string {
  const fields = [metric.warn, metric.crit, metric.min, metric.max].map((v) =>
    v === undefined ? '' : formatNumber(v),
  );
  while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
  return [`${metric.name}=${formatNumber(metric.value)}`, ...fields].join(';');
}
