/**
 * Shows the server's cancellable work-done progress (e.g. indexing the knowledge base) as a notification with
 * a Cancel button. vscode-languageclient renders server progress only in the status bar, where it cannot be
 * cancelled; this middleware takes over progress whose `begin` says `cancellable: true` and, on Cancel,
 * sends window/workDoneProgress/cancel for that token. Other progress is left to the default rendering.
 */
import * as vscode from 'vscode';
import type { Middleware, ProgressToken } from 'vscode-languageclient/node';
import { progressStep, type WorkDoneValue } from './progress';

interface Shown {
  report(value: WorkDoneValue): void;
  finish(): void;
}

export class CancellableProgress {
  private readonly shown = new Map<ProgressToken, Shown>();
  private cancels = 0;

  /** `sendCancel` delivers window/workDoneProgress/cancel to the server. */
  constructor(private readonly sendCancel: (token: ProgressToken) => void) {}

  /** How many progress notifications the user has cancelled so far (callers compare before/after). */
  get cancelCount(): number {
    return this.cancels;
  }

  readonly handleWorkDoneProgress: NonNullable<Middleware['handleWorkDoneProgress']> = (token, params, next) => {
    const value = params as WorkDoneValue;
    const entry = this.shown.get(token);
    if (!entry) {
      if (value.kind === 'begin' && value.cancellable) this.open(token, value);
      else next(token, params);
      return;
    }
    if (value.kind === 'end') {
      entry.finish();
      this.shown.delete(token);
      next(token, params); // lets the client dispose its own bookkeeping for the token
    } else {
      entry.report(value);
    }
  };

  private open(token: ProgressToken, begin: Extract<WorkDoneValue, { kind: 'begin' }>): void {
    // Values may arrive before VS Code has called the progress task; they are buffered until it has.
    const pending: WorkDoneValue[] = [{ ...begin, title: '' }];
    let sink: ((v: WorkDoneValue) => void) | undefined;
    let close: (() => void) | undefined;
    let finished = false;
    this.shown.set(token, {
      report: (v) => (sink ? sink(v) : pending.push(v)),
      finish: () => {
        finished = true;
        close?.();
      },
    });
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `safereq: ${begin.title}`, cancellable: true },
      (progress, cancel) =>
        new Promise<void>((resolve) => {
          if (finished) return resolve();
          close = resolve;
          let last: number | undefined;
          sink = (v) => {
            const step = progressStep(v, last);
            last = step.percentage ?? last;
            progress.report({ message: step.message, increment: step.increment });
          };
          pending.splice(0).forEach(sink);
          cancel.onCancellationRequested(() => {
            this.cancels += 1;
            this.sendCancel(token);
            resolve();
          });
        }),
    );
  }

  /** Closes every open notification (the server stopped). */
  dispose(): void {
    for (const s of this.shown.values()) s.finish();
    this.shown.clear();
  }
}
