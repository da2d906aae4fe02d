/** Binds the status model (status.ts) to a VS Code status bar item. */
import * as vscode from 'vscode';
import { ClientCommand, type StatusParams } from './protocol';
import { statusView, type ClientState } from './status';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('safereq.status', vscode.StatusBarAlignment.Left, 10);
  private client: ClientState = 'stopped';
  private server: StatusParams | undefined;
  private launch: string | undefined;

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
  }

  private render(): void {
    const view = statusView({ client: this.client, server: this.server, launch: this.launch });
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      view.severity === 'normal' ? undefined : new vscode.ThemeColor(`statusBarItem.${view.severity}Background`);
  }

  dispose(): void {
    this.item.dispose();
  }
}
