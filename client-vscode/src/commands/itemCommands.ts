/**
 * The commands that act on "the item under the cursor": derive requirements, suggest trace links, suggest
 * rebuttals, show trace. The item is found client-side from the heading structure (items.ts); the server
 * gets the document URI and the item ID.
 */
import * as vscode from 'vscode';
import type { ServerController } from '../controller';
import { UserError } from '../controller';
import { itemAtLine } from '../items';
import { ServerCommand, parseReviewResult, parseSummary, parseTrace, suggestionMessage, type ServerCommandId } from '../protocol';
import type { TraceDocuments } from '../traceDocuments';

interface SuggestionKind {
  command: ServerCommandId;
  /** Progress title, completed with the item ID. */
  doing: string;
  /** Result noun, singular and plural. */
  noun: [string, string];
}

export const Suggestions = {
  derive: { command: ServerCommand.deriveRequirements, doing: 'deriving requirements from', noun: ['requirement', 'requirements'] },
  traceLinks: { command: ServerCommand.suggestTraceLinks, doing: 'suggesting trace links for', noun: ['trace link', 'trace links'] },
  rebuttals: { command: ServerCommand.suggestRebuttals, doing: 'suggesting rebuttals for', noun: ['rebuttal', 'rebuttals'] },
} satisfies Record<string, SuggestionKind>;

export interface ItemTarget {
  uri: vscode.Uri;
  itemId: string;
}

/** Arguments passed explicitly (e.g. from a code lens) win over the cursor. */
export function targetItem(uriArg?: unknown, idArg?: unknown): ItemTarget {
  if (typeof idArg === 'string' && (typeof uriArg === 'string' || uriArg instanceof vscode.Uri)) {
    return { uri: typeof uriArg === 'string' ? vscode.Uri.parse(uriArg) : uriArg, itemId: idArg };
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'markdown') {
    throw new UserError('Open a requirement document and place the cursor inside an item.');
  }
  const doc = editor.document;
  const lines = Array.from({ length: doc.lineCount }, (_, i) => doc.lineAt(i).text);
  const item = itemAtLine(lines, editor.selection.active.line);
  if (!item) throw new UserError('The cursor is not inside a requirement item (a heading such as "## SG-1: Title").');
  return { uri: doc.uri, itemId: item.id };
}

export async function runSuggestion(controller: ServerController, kind: SuggestionKind, uriArg?: unknown, idArg?: unknown) {
  const { uri, itemId } = targetItem(uriArg, idArg);
  // No progress of our own: the server reports cancellable work-done progress for the run, which
  // CancellableProgress shows as the one notification with a Cancel button (a second one here showed two).
  const result = await controller.execute(kind.command, [uri.toString(), itemId]);
  const summary = parseSummary(result);
  if (!summary) {
    void vscode.window.showInformationMessage(`safereq: ${kind.doing} ${itemId}: done.`);
    return;
  }
  void vscode.window.showInformationMessage(suggestionMessage(summary, itemId, kind.noun));
}

/**
 * Accept or Reject from a code lens on a review block: the server computes the edit on the current text and
 * applies it; its message (what was accepted or rejected, or why nothing was) is shown here, because
 * vscode-languageclient drops the result of a command run from a lens.
 */
export async function decideSuggestion(controller: ServerController, command: ServerCommandId, args: unknown[]) {
  const result = parseReviewResult(await controller.execute(command, args));
  if (!result) throw new UserError('The server gave no answer to the review decision.');
  if (result.applied) void vscode.window.showInformationMessage(`safereq: ${result.message}`);
  else void vscode.window.showWarningMessage(`safereq: ${result.message}`);
}

export async function showTrace(controller: ServerController, traces: TraceDocuments, uriArg?: unknown, idArg?: unknown) {
  const { uri, itemId } = targetItem(uriArg, idArg);
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `safereq: trace of ${itemId}` },
    () => controller.execute(ServerCommand.showTrace, [uri.toString(), itemId]),
  );
  const trace = parseTrace(result);
  if (!trace) throw new UserError(`The server returned no trace for ${itemId}.`);
  await traces.show(itemId, trace.markdown);
}
