/**
 * Trace coverage of the workspace as the server's safereq.coverage / safereq.writeReport commands return it,
 * and the line the status bar tooltip shows. Kept free of the vscode API so it can be unit-tested.
 */

export interface CoverageRow {
  measure: string;
  covered: number;
  total: number;
  percent: number;
}

export interface CoverageSummary {
  items: number;
  holes: number;
  coverage: CoverageRow[];
  /** Only from safereq.writeReport: where the page was written. */
  path?: string;
}

function isRow(raw: unknown): raw is CoverageRow {
  if (typeof raw !== 'object' || raw === null) return false;
  const r = raw as Record<string, unknown>;
  return typeof r.measure === 'string' && [r.covered, r.total, r.percent].every((v) => typeof v === 'number' && Number.isFinite(v));
}

/** Accepts the server's answer only in the agreed shape; anything else is ignored, not trusted. */
export function parseCoverage(raw: unknown): CoverageSummary | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.items !== 'number' || typeof r.holes !== 'number' || !Array.isArray(r.coverage)) return undefined;
  const rows = r.coverage.filter(isRow).map((row) => ({ measure: row.measure.slice(0, 40), covered: row.covered, total: row.total, percent: row.percent }));
  const summary: CoverageSummary = { items: r.items, holes: r.holes, coverage: rows };
  if (typeof r.path === 'string' && r.path) summary.path = r.path;
  return summary;
}

/** "Coverage: covered 75% (3/4) · refined 83.3% (5/6) · 3 holes" — or undefined when nothing is measured. */
export function coverageLine(summary: CoverageSummary | undefined): string | undefined {
  if (!summary || summary.coverage.length === 0) return undefined;
  const parts = summary.coverage.map((row) => `${row.measure} ${row.percent}% (${row.covered}/${row.total})`);
  const holes = summary.holes === 1 ? '1 hole' : `${summary.holes} holes`;
  return `Coverage: ${parts.join(' · ')} · ${holes}`;
}
