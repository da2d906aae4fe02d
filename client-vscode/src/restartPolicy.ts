/**
 * When to start the server again after it exited. vscode-languageclient's default restarts at once, four
 * times: a server that exits at start-up was started five times in a tenth of a second and the user was left
 * with a generic message. Here each restart waits twice as long as the one before; after the last one the
 * server stays stopped and the controller says so once. A server that ran for a while before exiting starts
 * the count afresh. Free of the vscode API, so that it can be unit-tested with a clock of the test's own.
 */

export const RESTART_DELAYS_MS: readonly number[] = [500, 1000, 2000, 4000, 8000];
/** A server that ran this long before exiting had a crash, not a start-up failure: the back-off starts over. */
export const STABLE_AFTER_MS = 60_000;

export class RestartBackoff {
  private attempt = 0;
  private runningSince: number | undefined;

  constructor(
    private readonly delays: readonly number[] = RESTART_DELAYS_MS,
    private readonly stableAfterMs: number = STABLE_AFTER_MS,
  ) {}

  /** The server is up (initialize answered) at time `now`. */
  running(now: number): void {
    this.runningSince = now;
  }

  /** The server exited at `now`: milliseconds to wait before starting it again, or undefined to give up. */
  next(now: number): number | undefined {
    if (this.runningSince !== undefined && now - this.runningSince >= this.stableAfterMs) this.attempt = 0;
    this.runningSince = undefined;
    const delay = this.delays[this.attempt];
    if (delay !== undefined) this.attempt += 1;
    return delay;
  }

  /** How many restarts have been handed out since the count last started. */
  get restarts(): number {
    return this.attempt;
  }
}
