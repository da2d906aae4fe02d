/**
 * Read-only virtual Markdown documents holding the traces the server renders, shown in the Markdown preview.
 * One URI per item, so showing the same item's trace again refreshes the open preview instead of adding tabs.
 */
import * as vscode from 'vscode';

export const TRACE_SCHEME = 'safereq-trace';

export class TraceDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly content = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.content.get(uri.toString()) ?? '';
  }

  async show(itemId: string, markdown: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: TRACE_SCHEME, path: `/Trace ${itemId}.md` });
    this.content.set(uri.toString(), markdown);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    try {
      await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
    } catch {
      // No Markdown preview (the built-in extension can be disabled): show the source instead.
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    }
  }

  dispose(): void {
    this.changed.dispose();
    this.content.clear();
  }
}
