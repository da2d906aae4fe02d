/**
 * Reads the interpreter selected in the Python extension (ms-python.python), when it is installed, so that a
 * server installed into the project's virtual environment is found without any setting.
 * Only the few members of the extension's public API used here are declared.
 */
import * as vscode from 'vscode';

const PYTHON_EXTENSION_ID = 'ms-python.python';

interface EnvironmentPath {
  id: string;
  path: string;
}
interface ResolvedEnvironment {
  executable: { uri: vscode.Uri | undefined };
}
interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
    resolveEnvironment(env: EnvironmentPath | string): Promise<ResolvedEnvironment | undefined>;
    onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
  settings?: {
    getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined };
  };
}

async function api(): Promise<PythonExtensionApi | undefined> {
  const ext = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
  if (!ext) return undefined;
  try {
    return ext.isActive ? ext.exports : await ext.activate();
  } catch {
    return undefined;
  }
}

/** The selected interpreter's executable, or undefined when there is no Python extension or no selection. */
export async function selectedInterpreter(resource: vscode.Uri | undefined): Promise<string | undefined> {
  const py = await api();
  if (!py) return undefined;
  try {
    if (py.environments) {
      const envPath = py.environments.getActiveEnvironmentPath(resource);
      const resolved = await py.environments.resolveEnvironment(envPath);
      const exe = resolved?.executable.uri?.fsPath;
      if (exe) return exe;
    }
    const cmd = py.settings?.getExecutionDetails(resource).execCommand;
    // A multi-word command (e.g. "conda run ...") cannot be launched as an interpreter path; skip it.
    return cmd && cmd.length === 1 ? cmd[0] : undefined;
  } catch {
    return undefined;
  }
}

/** Calls `listener` when the user selects another interpreter; a no-op without the Python extension. */
export async function onInterpreterChange(listener: () => void): Promise<vscode.Disposable> {
  const py = await api();
  return py?.environments?.onDidChangeActiveEnvironmentPath(() => listener()) ?? new vscode.Disposable(() => undefined);
}
