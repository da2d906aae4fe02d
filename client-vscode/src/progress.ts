/**
 * Converts LSP work-done progress values into VS Code progress steps: LSP reports an absolute percentage,
 * VS Code's Progress.report wants the increment since the last report.
 */

/** The LSP work-done progress values (begin/report/end), declared here to keep this module dependency-free. */
export type WorkDoneValue =
  | { kind: 'begin'; title: string; message?: string; percentage?: number; cancellable?: boolean }
  | { kind: 'report'; message?: string; percentage?: number; cancellable?: boolean }
  | { kind: 'end'; message?: string };

export interface ProgressStep {
  message: string | undefined;
  increment: number | undefined;
  percentage: number | undefined;
}

export function progressStep(
  value: WorkDoneValue,
  lastPercentage: number | undefined,
): ProgressStep {
  if (value.kind === 'end') return { message: value.message, increment: undefined, percentage: undefined };
  const message = value.kind === 'begin' && !value.message ? value.title : value.message;
  const pct = typeof value.percentage === 'number' ? Math.max(0, Math.min(100, value.percentage)) : undefined;
  const increment = pct === undefined ? undefined : Math.max(0, pct - (lastPercentage ?? 0));
  return { message, increment, percentage: pct };
}
