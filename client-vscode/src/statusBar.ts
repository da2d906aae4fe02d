/** Binds the status model (status.ts) to a VS Code status bar item. */
import * as vscode from 'vscode';
import { ClientCommand, type StatusParams } from './protocol';
import { statusView, type ClientState } from './status';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('safereq.status', vscode.StatusBarAlignment.Left, 10);
  private client: ClientState = 'stopped';
  private server: StatusParams | undefined;
  private launch: string | undefined;
  private coverage: string | undefined;
  /** Called when the server says it is ready (the coverage figures are then fetched). */
  onReady: (() => void) | undefined;

  constructor() {
    this.item.name = 'safereq';
    this.item.command = ClientCommand.showLog;
    this.render();
    this.item.show();
  }

  setClient(state: ClientState, launch?: string): void {
    this.client = state;
    if (launch !== undefined) this.launch = launch;
    if (state !== 'running') this.server = undefined;
    this.render();
  }

  setServer(status: StatusParams): void {
    this.server = status;
    this.render();
    if (status.state === 'ready') this.onReady?.();
  }

  /** The coverage line of the tooltip (coverage.ts), or undefined for none. */
  setCoverage(line: string | undefined): void {
    this.coverage = line;
    this.render();
  }

  private render(): void {
    const view = statusView({ client: this.client, server: this.server, launch: this.launch });
    this.item.text = view.text;
    this.item.tooltip = this.coverage && this.client === 'running' ? `${view.tooltip}\n${this.coverage}` : view.tooltip;
    this.item.backgroundColor =
      view.severity === 'normal' ? undefined : new vscode.ThemeColor(`statusBarItem.${view.severity}Background`);
  }

  dispose(): void {
    this.item.dispose();
  }
}
