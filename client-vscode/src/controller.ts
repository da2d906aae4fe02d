/**
 * Owns the language client: finds the server, starts it with the API key in its environment, restarts it when
 * something that only takes effect at spawn changes (server path, interpreter, API key), and forwards the
 * server's safereq/status notifications to the status bar. Start, stop and restart are serialised so that a
 * burst of setting changes cannot leave two servers running.
 */
import * as path from 'node:path';
import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  WorkDoneProgressCancelNotification,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { CancellableProgress } from './cancellableProgress';
import { clientOutputChannel } from './logChannel';
import { withoutRepeatedHeading } from './references';
import { refusalMessage } from './refusals';
import { RestartBackoff } from './restartPolicy';
import { nodeProbes } from './launch/probes';
import { onInterpreterChange, selectedInterpreter } from './launch/python';
import {
  describeSpec,
  expandSettingPath,
  installCommand,
  resolveServer,
  type LaunchSpec,
  upgradeCommand,
  type Resolution,
} from './launch/resolve';
import {
  API_KEY_ENV,
  API_KEY_SECRET,
  CLIENT_ONLY_SETTINGS,
  CONFIG_SECTION,
  STATUS_NOTIFICATION,
  parseStatus,
  type ServerCommandId,
} from './protocol';
import type { StatusBar } from './statusBar';

/** An error whose message is meant for the user as it stands. */
export class UserError extends Error {}

const RUNNING_CONTEXT = 'safereq.serverRunning';
const STOP_TIMEOUT_MS = 3000;
/** Lists a header among its own references (see references.ts). */
const MARKDOWN_EXTENSION = 'vscode.markdown-language-features';

export class ServerController implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private progressUi = new CancellableProgress(() => undefined);
  private spec: LaunchSpec | undefined;
  private python: string | undefined;
  private lastInstallCommand = installCommand(undefined, process.platform);
  private queue: Promise<void> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly specEmitter = new vscode.EventEmitter<void>();
  /** Fires when how the server is started changed (the MCP server definition follows it, see mcpServer.ts). */
  readonly onDidChangeSpec = this.specEmitter.event;
  /** Closes the "not found" notification while it is shown. */
  private closeNotFound: (() => void) | undefined;
  /**
   * Runs in place of a server command invoked from a code action or code lens (vscode-languageclient executes
   * those itself and drops the result); return undefined to let the client send the command as usual.
   */
  commandInterceptor: (command: string, args: unknown[]) => Promise<unknown> | undefined = () => undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly status: StatusBar,
  ) {}

  /** Starts watching the inputs that need a restart; call once after construction. */
  async watch(): Promise<void> {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (CLIENT_ONLY_SETTINGS.some((s) => e.affectsConfiguration(s))) {
          this.log.info('Server path changed; restarting.');
          void this.restart();
        }
      }),
      this.context.secrets.onDidChange((e) => {
        if (e.key === API_KEY_SECRET) {
          this.log.info('LLM API key changed; restarting the server so that it receives the new key.');
          void this.restart();
        }
      }),
      await onInterpreterChange(() => {
        if (!this.spec || this.spec.source === 'python') {
          this.log.info('Python interpreter changed; restarting.');
          void this.restart();
        }
      }),
    );
  }

  start(): Promise<void> {
    return this.serialise(() => this.doStart());
  }

  /** How the server is started, once resolved; undefined before the first start or when none was found. */
  get launchSpec(): LaunchSpec | undefined {
    return this.spec;
  }

  /** Resolves when the queued starts and restarts are done. */
  settled(): Promise<void> {
    return this.queue;
  }

  restart(): Promise<void> {
    return this.serialise(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  stop(): Promise<void> {
    return this.serialise(() => this.doStop());
  }

  /** The progress notifications of the current server (see CancellableProgress). */
  get progress(): CancellableProgress {
    return this.progressUi;
  }

  /** The running client, or a UserError that says why there is none. */
  requireClient(): LanguageClient {
    const client = this.client;
    if (client && client.state === State.Running) return client;
    if (!this.spec) {
      throw new UserError(`The safereq language server is not installed. Install it with: ${this.lastInstallCommand}`);
    }
    throw new UserError('The safereq language server is not running. Run "safereq: Restart Server" or see the log.');
  }

  /** Sends workspace/executeCommand after checking that the server announced the command. */
  async execute(command: ServerCommandId, args: unknown[], token?: vscode.CancellationToken): Promise<unknown> {
    const client = this.requireClient();
    const offered = client.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
    if (!offered.includes(command)) {
      throw new UserError(
        `This safereq server does not provide "${command}". Update it with: ${upgradeCommand(this.python, process.platform)}`,
      );
    }
    return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }, token);
  }

  private serialise(step: () => Promise<void>): Promise<void> {
    const next = this.queue.then(step, step);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async doStart(): Promise<void> {
    this.status.setClient('starting');
    const resource = vscode.window.activeTextEditor?.document.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    const folder = resource ? vscode.workspace.getWorkspaceFolder(resource) ?? vscode.workspace.workspaceFolders?.[0] : undefined;
    const rawSetting = vscode.workspace.getConfiguration(CONFIG_SECTION, resource).get<string>('server.path', '');
    const settingPath = expandSettingPath(rawSetting, os.homedir(), folder?.uri.fsPath, path.join, path.isAbsolute);
    const python = await selectedInterpreter(resource);
    this.python = python;
    this.lastInstallCommand = installCommand(python, process.platform);

    const resolution = await resolveServer({ settingPath, pythonInterpreter: python }, nodeProbes);
    this.report(resolution, settingPath);
    const changed = JSON.stringify(this.spec) !== JSON.stringify(resolution.spec);
    this.spec = resolution.spec;
    if (changed) this.specEmitter.fire();
    if (!resolution.spec) {
      this.status.setClient('notFound');
      this.notifyNotFound(resolution);
      return;
    }
    this.closeNotFound?.();
    const spec = resolution.spec;
    this.log.info(`Starting ${describeSpec(spec)}`);

    // The log output channel stamps each line with its time: the server's own time stamp would be a second one.
    const env: NodeJS.ProcessEnv = { ...process.env, SAFEREQ_LOG_TIMESTAMPS: '0' };
    const key = await this.context.secrets.get(API_KEY_SECRET);
    if (key) env[API_KEY_ENV] = key;
    const serverOptions: ServerOptions = {
      command: spec.command,
      args: spec.args,
      options: { env, cwd: folder?.uri.fsPath },
    };
    const backoff = new RestartBackoff();
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'markdown' },
        { scheme: 'untitled', language: 'markdown' },
      ],
      outputChannel: clientOutputChannel(this.log),
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      // The server registers its own file watchers (dynamic registration), so none are declared here.
      synchronize: { configurationSection: CONFIG_SECTION },
      initializationFailedHandler: () => false,
      errorHandler: this.errorHandler(backoff),
    };
    const progressUi = new CancellableProgress((token) => {
      void client.sendNotification(WorkDoneProgressCancelNotification.type, { token });
    });
    clientOptions.middleware = {
      handleWorkDoneProgress: progressUi.handleWorkDoneProgress,
      executeCommand: (command, args, next) => this.commandInterceptor(command, args) ?? next(command, args),
      provideReferences: async (document, position, options, token, next) => {
        const found = await next(document, position, options, token);
        if (!found || !vscode.extensions.getExtension(MARKDOWN_EXTENSION)?.isActive) return found;
        const at = { uri: document.uri.toString(), line: position.line, lineText: document.lineAt(position.line).text };
        return withoutRepeatedHeading(found, at, (l) => ({ uri: l.uri.toString(), line: l.range.start.line }));
      },
      provideRenameEdits: async (document, position, newName, token, next) => {
        try {
          return await next(document, position, newName, token);
        } catch (err) {
          const refusal = refusalMessage(err);
          if (refusal === undefined) throw err;
          void vscode.window.showErrorMessage(`safereq: ${refusal}`);
          // An empty edit, not an error: VS Code would offer an error'd rename to the Markdown extension next.
          return new vscode.WorkspaceEdit();
        }
      },
    };
    const client = new LanguageClient('safereq', 'safereq', serverOptions, clientOptions);
    this.client = client;
    this.progressUi = progressUi;
    client.onNotification(STATUS_NOTIFICATION, (raw: unknown) => {
      const s = parseStatus(raw);
      if (s && this.client === client) this.status.setServer(s);
    });
    client.onDidChangeState((e) => {
      if (this.client !== client) return;
      if (e.newState === State.Starting) this.status.setClient('starting');
      if (e.newState === State.Running) {
        backoff.running(Date.now());
        this.status.setClient('running', describeSpec(spec));
      }
      if (e.newState === State.Stopped) {
        this.status.setClient('failed');
        void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT, false);
      }
    });
    try {
      await client.start();
      this.status.setClient('running', describeSpec(spec));
      await vscode.commands.executeCommand('setContext', RUNNING_CONTEXT, true);
    } catch (err) {
      this.status.setClient('failed', describeSpec(spec));
      // No notification here: a server that exits is started again with back-off, and the error handler says
      // once when it gives up (a notification per failed start was one message too many).
      this.log.error(`The server did not start: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * Restarts an exited server with exponential back-off (RestartBackoff) and gives up with one message; a write
   * to a server that has just exited is logged as one plain line, not as the stream's error.
   */
  private errorHandler(backoff: RestartBackoff): NonNullable<LanguageClientOptions['errorHandler']> {
    let lostLogged = false;
    return {
      error: (_error, _message, count) => {
        const first = !lostLogged;
        lostLogged = true;
        return {
          // Continue unless the connection keeps failing: an exited server is closed() business, and stopping a
          // client that is still starting fails with a stack trace of its own.
          action: count !== undefined && count > 3 ? ErrorAction.Shutdown : ErrorAction.Continue,
          handled: true,
          message: first ? 'Lost the connection to the language server (see its last lines above).' : ' ',
        };
      },
      closed: async () => {
        const delay = backoff.next(Date.now());
        if (delay === undefined) {
          const message = `safereq: the language server exited ${backoff.restarts + 1} times right after starting and is ` +
            `not restarted again. See the log for why, then run "safereq: Restart Server". If it is missing or outdated, ` +
            `install it with: ${this.lastInstallCommand}`;
          void this.notifyGaveUp(message);
          return { action: CloseAction.DoNotRestart, handled: true, message };
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
        lostLogged = false;
        return {
          action: CloseAction.Restart,
          handled: true,
          message: `The language server exited; starting it again after ${delay} ms (restart ${backoff.restarts}).`,
        };
      },
    };
  }

  private async notifyGaveUp(message: string): Promise<void> {
    const logs = 'Show Log';
    const restart = 'Restart Server';
    const choice = await vscode.window.showErrorMessage(message, logs, restart);
    if (choice === logs) this.log.show(true);
    if (choice === restart) await this.restart();
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.progressUi.dispose();
    await vscode.commands.executeCommand('setContext', RUNNING_CONTEXT, false);
    if (!client) return;
    try {
      await client.dispose(STOP_TIMEOUT_MS);
    } catch (err) {
      this.log.warn(`Stopping the server: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.status.setClient('stopped');
  }

  private report(resolution: Resolution, settingPath: string): void {
    for (const a of resolution.attempts) this.log.warn(`Server candidate ${a.candidate} (${a.source}): ${a.problem}`);
    if (settingPath && resolution.spec && resolution.spec.source !== 'setting') {
      void vscode.window.showWarningMessage(
        `safereq: safereq.server.path "${settingPath}" does not work; using ${describeSpec(resolution.spec)} instead.`,
      );
    }
  }

  /**
   * A notification that stays while the server is missing and closes by itself once one is found (a message
   * with buttons cannot be closed by an extension: it stayed after the server came back). Its actions are
   * the status bar item's (the log) and the settings, named in the text.
   */
  private notifyNotFound(resolution: Resolution): void {
    if (this.closeNotFound) return;
    const tried = resolution.attempts.map((a) => `${a.candidate} (${a.problem})`).join('; ');
    const title = `safereq: the language server was not found (tried: ${tried}). Install it with: ${this.lastInstallCommand} ` +
      '— or set safereq.server.path; this closes once the server is found.';
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_p, token) =>
      new Promise<void>((resolve) => {
        this.closeNotFound = resolve;
        token.onCancellationRequested(() => resolve());
      }).finally(() => {
        this.closeNotFound = undefined;
      }),
    );
  }

  async dispose(): Promise<void> {
    for (const d of this.disposables) d.dispose();
    this.specEmitter.dispose();
    await this.doStop();
  }
}
