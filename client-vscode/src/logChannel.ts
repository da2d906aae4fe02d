/**
 * The output channel handed to vscode-languageclient: writes go to the safereq log output channel, one entry
 * per message at its own level (see logLines.ts). `append` carries the server's standard error in chunks;
 * `appendLine` the client's own messages.
 */
import * as vscode from 'vscode';
import { LineBuffer, clientEntry, serverEntry, type Entry } from './logLines';

export function clientOutputChannel(log: vscode.LogOutputChannel): vscode.OutputChannel {
  const buffer = new LineBuffer();
  const write = (entry: Entry | undefined) => {
    if (entry) log[entry.level](entry.text);
  };
  return {
    name: log.name,
    append: (value: string) => buffer.push(value).forEach((line) => write(serverEntry(line))),
    appendLine: (value: string) => write(clientEntry(value)),
    replace: (value: string) => log.replace(value),
    clear: () => log.clear(),
    show: (column?: vscode.ViewColumn | boolean, preserveFocus?: boolean) =>
      typeof column === 'boolean' ? log.show(column) : log.show(column, preserveFocus),
    hide: () => log.hide(),
    dispose: () => buffer.flush().forEach((line) => write(serverEntry(line))),
  } as vscode.OutputChannel;
}
