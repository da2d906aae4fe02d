/**
 * Registers `safereq mcp` for VS Code's agent mode (the `mcpServerDefinitionProviders` contribution and
 * `vscode.lm.registerMcpServerDefinitionProvider`, VS Code 1.101 and later), so the agent can call safereq's
 * read-only tools over the open workspace without a hand-written `.vscode/mcp.json`. The server is started
 * the way the language server is (the same setting, interpreter or PATH lookup), with `mcp` in place of
 * `serve` and the workspace folders as arguments.
 *
 * The editor's API is injected (an older VS Code has none of it: then nothing is registered), so the
 * definitions can be tested in node without an editor.
 */
import type * as vscode from 'vscode';
import type { LaunchSpec } from './launch/resolve';

export const MCP_PROVIDER_ID = 'safereq.mcpServers';
export const MCP_LABEL = 'safereq';

/** The command line of the MCP server, from the language server's: `serve` becomes `mcp FOLDER...`. */
export function mcpCommand(spec: LaunchSpec, folders: string[]): { command: string; args: string[] } {
  const args = [...spec.args];
  const at = args.lastIndexOf('serve');
  if (at === -1) args.push('mcp');
  else args.splice(at, 1, 'mcp');
  return { command: spec.command, args: [...args, ...folders] };
}

/** The part of the `vscode` module this needs: present in VS Code 1.101 and later. */
export interface McpApi {
  lm?: { registerMcpServerDefinitionProvider?: (id: string, provider: unknown) => vscode.Disposable };
  McpStdioServerDefinition?: new (
    label: string,
    command: string,
    args?: string[],
    env?: Record<string, string | number | null>,
    version?: string,
  ) => { cwd?: vscode.Uri; env: Record<string, string | number | null> };
}

/** Where the definition's inputs come from: the controller's launch spec, the workspace folders, the key. */
export interface McpSource {
  readonly launchSpec: LaunchSpec | undefined;
  settled(): Promise<void>;
  onDidChangeSpec: vscode.Event<void>;
  folders(): { fsPath: string; uri: vscode.Uri }[];
  onDidChangeFolders: vscode.Event<unknown>;
  apiKey(): Promise<string | undefined>;
  apiKeyEnv: string;
  version: string;
}

/** Registers the provider; undefined when this VS Code has no MCP API. */
export function registerMcpServer(api: McpApi, source: McpSource): vscode.Disposable | undefined {
  const register = api.lm?.registerMcpServerDefinitionProvider?.bind(api.lm);
  const Definition = api.McpStdioServerDefinition;
  if (!register || !Definition) return undefined;
  const listeners: Array<() => void> = [];
  const onDidChangeMcpServerDefinitions: vscode.Event<void> = (listener, thisArg) => {
    const fire = () => listener.call(thisArg, undefined);
    listeners.push(fire);
    return { dispose: () => listeners.splice(listeners.indexOf(fire), 1) } as vscode.Disposable;
  };
  const changed = () => listeners.slice().forEach((fire) => fire());
  const subscriptions = [source.onDidChangeSpec(changed), source.onDidChangeFolders(changed)];
  const provider = {
    onDidChangeMcpServerDefinitions,
    async provideMcpServerDefinitions() {
      await source.settled();
      const spec = source.launchSpec;
      const folders = source.folders();
      if (!spec || folders.length === 0) return [];
      const { command, args } = mcpCommand(spec, folders.map((f) => f.fsPath));
      const definition = new Definition(MCP_LABEL, command, args, {}, `${source.version} ${command}`);
      definition.cwd = folders[0].uri;
      return [definition];
    },
    async resolveMcpServerDefinition(definition: { env: Record<string, string | number | null> }) {
      // The LLM key lives in the editor's secret storage; it is handed over only when the server starts.
      const key = await source.apiKey();
      if (key) definition.env = { ...definition.env, [source.apiKeyEnv]: key };
      return definition;
    },
  };
  let registration: vscode.Disposable;
  try {
    registration = register(MCP_PROVIDER_ID, provider);
  } catch {
    // VS Code 1.100 has a proposed API of the same name that wants another contribution point and throws:
    // agent mode is then not offered, and the rest of the extension activates as usual.
    subscriptions.forEach((d) => d.dispose());
    return undefined;
  }
  return { dispose: () => [registration, ...subscriptions].forEach((d) => d.dispose()) } as vscode.Disposable;
}
