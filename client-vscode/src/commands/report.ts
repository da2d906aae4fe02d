/**
 * "Open Traceability Report": the server writes the report of the workspace (.safereq/report/index.html,
 * from its live documents) and the page opens in the system browser; and the coverage figures that the
 * status bar tooltip shows, refreshed when the server is ready and as documents change.
 */
import * as vscode from 'vscode';
import type { ServerController } from '../controller';
import { UserError } from '../controller';
import { coverageLine, parseCoverage } from '../coverage';
import { ServerCommand } from '../protocol';
import type { StatusBar } from '../statusBar';

export async function openReport(controller: ServerController, status: StatusBar): Promise<void> {
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'safereq: writing the traceability report' },
    () => controller.execute(ServerCommand.writeReport, []),
  );
  const summary = parseCoverage(result);
  if (!summary?.path) throw new UserError('The server did not say where it wrote the report.');
  status.setCoverage(coverageLine(summary));
  const opened = await vscode.env.openExternal(vscode.Uri.file(summary.path));
  if (!opened) void vscode.window.showInformationMessage(`safereq: the report is in ${summary.path}`);
}

/** Asks for the figures when the server can answer; stays quiet otherwise (the tooltip just has none). */
export async function refreshCoverage(controller: ServerController, status: StatusBar, log: vscode.LogOutputChannel): Promise<void> {
  try {
    status.setCoverage(coverageLine(parseCoverage(await controller.execute(ServerCommand.coverage, []))));
  } catch (err) {
    status.setCoverage(undefined);
    if (!(err instanceof UserError)) log.debug(`coverage: ${err instanceof Error ? err.message : String(err)}`);
  }
}
