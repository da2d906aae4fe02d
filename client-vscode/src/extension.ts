/** Entry point: wires the controller, status bar, log and commands together; no logic of its own. */
import * as vscode from 'vscode';
import { clearApiKey, setApiKey } from './commands/apiKey';
import { acceptFinding, fixAllInDocument } from './commands/documentCommands';
import { openSampleDocument, openWalkthrough } from './commands/walkthrough';
import { Suggestions, decideSuggestion, runSuggestion, showTrace } from './commands/itemCommands';
import { indexKnowledgeBase } from './commands/knowledgeBase';
import { openReport, refreshCoverage } from './commands/report';
import { ServerController, UserError } from './controller';
import { registerMcpServer, type McpApi } from './mcpServer';
import { API_KEY_ENV, API_KEY_SECRET, ClientCommand, ServerCommand } from './protocol';
import { StatusBar } from './statusBar';
import { TRACE_SCHEME, TraceDocuments } from './traceDocuments';

let controller: ServerController | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('safereq', { log: true });
  const status = new StatusBar();
  const traces = new TraceDocuments();
  const ctl = new ServerController(context, log, status);
  controller = ctl;

  /** Runs a command so that a failure becomes one readable notification instead of an unhandled rejection. */
  const guarded = async (id: string, run: () => unknown): Promise<void> => {
    try {
      await run();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (!(err instanceof UserError)) log.error(`${id}: ${message}`);
      void vscode.window.showErrorMessage(`safereq: ${message}`);
    }
  };
  const command = (id: string, run: (...args: unknown[]) => unknown) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => guarded(id, () => run(...args)));

  // The server's own commands, when a code action or lens runs them, get the same progress, result message and
  // trace preview as the palette commands.
  // Accept / Reject on a review block's code lenses show what the server did.
  const serverCommands: Record<string, (args: unknown[]) => Promise<void>> = {
    [ServerCommand.deriveRequirements]: (a) => runSuggestion(ctl, Suggestions.derive, a[0], a[1]),
    [ServerCommand.suggestTraceLinks]: (a) => runSuggestion(ctl, Suggestions.traceLinks, a[0], a[1]),
    [ServerCommand.suggestRebuttals]: (a) => runSuggestion(ctl, Suggestions.rebuttals, a[0], a[1]),
    [ServerCommand.showTrace]: (a) => showTrace(ctl, traces, a[0], a[1]),
    [ServerCommand.reviewAccept]: (a) => decideSuggestion(ctl, ServerCommand.reviewAccept, a),
    [ServerCommand.reviewReject]: (a) => decideSuggestion(ctl, ServerCommand.reviewReject, a),
    // "Accept this finding…" asks for the reason the server needs.
    [ServerCommand.acceptFinding]: (a) => acceptFinding(ctl, a),
  };
  ctl.commandInterceptor = (id, args) => {
    const run = serverCommands[id];
    return run ? guarded(id, () => run(args)) : undefined;
  };

  context.subscriptions.push(
    log,
    status,
    traces,
    vscode.workspace.registerTextDocumentContentProvider(TRACE_SCHEME, traces),
    command(ClientCommand.indexKnowledgeBase, () => indexKnowledgeBase(ctl)),
    command(ClientCommand.deriveRequirements, (u, i) => runSuggestion(ctl, Suggestions.derive, u, i)),
    command(ClientCommand.suggestTraceLinks, (u, i) => runSuggestion(ctl, Suggestions.traceLinks, u, i)),
    command(ClientCommand.suggestRebuttals, (u, i) => runSuggestion(ctl, Suggestions.rebuttals, u, i)),
    command(ClientCommand.showTrace, (u, i) => showTrace(ctl, traces, u, i)),
    command(ClientCommand.restartServer, () => ctl.restart()),
    command(ClientCommand.showLog, () => log.show(true)),
    command(ClientCommand.setApiKey, () => setApiKey(context.secrets)),
    command(ClientCommand.clearApiKey, () => clearApiKey(context.secrets)),
    command(ClientCommand.fixAll, () => fixAllInDocument(ctl)),
    command(ClientCommand.sampleDocument, () => openSampleDocument()),
    command(ClientCommand.openWalkthrough, () => openWalkthrough()),
  );
  // Coverage in the status bar tooltip: when the server is ready, and a moment after Markdown edits.
  let coverageTimer: NodeJS.Timeout | undefined;
  const coverageSoon = () => {
    if (coverageTimer) clearTimeout(coverageTimer);
    coverageTimer = setTimeout(() => void refreshCoverage(ctl, status, log), 1500);
  };
  status.onReady = coverageSoon;
  context.subscriptions.push(
    command(ClientCommand.openReport, () => openReport(ctl, status)),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.languageId === 'markdown' && e.contentChanges.length) coverageSoon();
    }),
    { dispose: () => coverageTimer && clearTimeout(coverageTimer) },
  );
  await ctl.watch();
  // Agent mode (VS Code 1.101+): `safereq mcp` over the workspace folders, started like the language server.
  const mcp = registerMcpServer(vscode as unknown as McpApi, {
    get launchSpec() {
      return ctl.launchSpec;
    },
    settled: () => ctl.settled(),
    onDidChangeSpec: ctl.onDidChangeSpec,
    folders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ fsPath: f.uri.fsPath, uri: f.uri })),
    onDidChangeFolders: vscode.workspace.onDidChangeWorkspaceFolders,
    apiKey: async () => context.secrets.get(API_KEY_SECRET),
    apiKeyEnv: API_KEY_ENV,
    version: String(context.extension.packageJSON.version ?? ''),
  });
  if (mcp) context.subscriptions.push(mcp);
  // Not awaited: finding and starting the server may take seconds, and activation should not wait for it.
  void ctl.start();
}

export async function deactivate(): Promise<void> {
  await controller?.dispose();
  controller = undefined;
}
