/**
 * "Index Knowledge Base": asks the server to (re)build the retrieval index. The server reports cancellable
 * work-done progress, which CancellableProgress shows as a notification with a Cancel button, and the
 * status bar item says "indexing"; this command only waits for the result and says how it ended.
 */
import * as vscode from 'vscode';
import type { ServerController } from '../controller';
import { ServerCommand, summariseIndexResult } from '../protocol';

export async function indexKnowledgeBase(controller: ServerController): Promise<void> {
  const cancelsBefore = controller.progress.cancelCount;
  let result: unknown;
  try {
    // The status bar item says "indexing" (the server's status) and the server's progress is the notification:
    // a window progress of our own here was a second status bar item.
    result = await controller.execute(ServerCommand.indexKnowledgeBase, []);
  } catch (err) {
    if (controller.progress.cancelCount > cancelsBefore) result = undefined;
    else throw err;
  }
  if (controller.progress.cancelCount > cancelsBefore) {
    void vscode.window.showInformationMessage('safereq: indexing cancelled; the previous index stays in use.');
    return;
  }
  const summary = summariseIndexResult(result);
  void vscode.window.showInformationMessage(`safereq: knowledge base indexed${summary ? ` (${summary})` : ''}.`);
}
