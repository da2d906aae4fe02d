/**
 * Keeps the LLM API key in VS Code's secret storage, never in settings.json. The controller restarts the
 * server when the secret changes, because the key reaches the server only through its environment.
 */
import * as vscode from 'vscode';
import { API_KEY_ENV, API_KEY_SECRET } from '../protocol';

export async function setApiKey(secrets: vscode.SecretStorage): Promise<void> {
  const key = await vscode.window.showInputBox({
    title: 'safereq: LLM API key',
    prompt: `Stored in VS Code's secret storage and passed to the server as ${API_KEY_ENV}. Leave empty to cancel.`,
    password: true,
    ignoreFocusOut: true,
  });
  if (!key || !key.trim()) return;
  await secrets.store(API_KEY_SECRET, key.trim());
  void vscode.window.showInformationMessage('safereq: API key stored; the server restarts to use it.');
}

export async function clearApiKey(secrets: vscode.SecretStorage): Promise<void> {
  await secrets.delete(API_KEY_SECRET);
  const fromEnv = process.env[API_KEY_ENV] ? ` The server still receives ${API_KEY_ENV} from VS Code's environment.` : '';
  void vscode.window.showInformationMessage(`safereq: API key removed from secret storage.${fromEnv}`);
}
