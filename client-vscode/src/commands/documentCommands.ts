/**
 * Commands on a whole finding or document: accept a finding as a deviation (asking for the mandatory reason),
 * and fix all safe findings of the active document. The server computes and applies the edits; this side asks
 * for what only the user can give and shows the server's answer.
 */
import * as vscode from 'vscode';
import type { ServerController } from '../controller';
import { UserError } from '../controller';
import { ServerCommand, parseEditResult } from '../protocol';

/** Shows an edit command's answer: information when applied, a warning when not. */
function tell(result: unknown, fallback: string): void {
  const parsed = parseEditResult(result);
  const message = `safereq: ${parsed ? parsed.message : fallback}`;
  if (!parsed || parsed.applied) void vscode.window.showInformationMessage(message);
  else void vscode.window.showWarningMessage(message);
}

/**
 * "Accept this finding…" from the lightbulb: `args` are the server's `[uri, version, rule, line, character]`;
 * the reason is asked for here and added as the sixth argument. Cancelling writes nothing.
 */
export async function acceptFinding(controller: ServerController, args: unknown[]): Promise<void> {
  const rule = typeof args[2] === 'string' ? args[2] : 'this rule';
  const reason = await vscode.window.showInputBox({
    title: `safereq: accept ${rule}`,
    prompt: 'Why is this finding acceptable? The reason is written into the document with the deviation.',
    placeHolder: "e.g. quoted from the customer's specification CS-4.2",
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() ? undefined : 'An accepted deviation needs a reason.'),
  });
  if (reason === undefined || !reason.trim()) return;
  tell(await controller.execute(ServerCommand.acceptFinding, [...args.slice(0, 5), reason.trim()]), `accepted ${rule}.`);
}

/** "safereq: Fix All in This Document": the active Markdown document's safe fixes, as one undoable edit. */
export async function fixAllInDocument(controller: ServerController): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'markdown') {
    throw new UserError('Open a requirement document to fix.');
  }
  tell(await controller.execute(ServerCommand.fixAll, [editor.document.uri.toString()]), 'fixes applied.');
}
