/**
 * Decides how to start `safereq serve`. The order is the one users expect from Python tooling in VS Code:
 * an explicit setting first, then the interpreter chosen in the Python extension, then `safereq` on PATH.
 * Probing is injected so that the decision is testable without touching the disk or spawning processes.
 */

export type LaunchSource = 'setting' | 'python' | 'path';

export interface LaunchSpec {
  command: string;
  args: string[];
  source: LaunchSource;
}

export interface Attempt {
  source: LaunchSource;
  candidate: string;
  problem: string;
}

export interface Resolution {
  spec: LaunchSpec | undefined;
  attempts: Attempt[];
}

export interface Probes {
  /** True when `path` is an existing executable file. */
  isExecutable(path: string): Promise<boolean>;
  /** Absolute path of `name` found on PATH, or undefined. */
  findOnPath(name: string): Promise<string | undefined>;
  /** True when `python` runs and can import the safereq package. */
  pythonHasSafereq(python: string): Promise<boolean>;
}

export interface ResolveInput {
  /** `safereq.server.path`, already expanded (see expandSettingPath); empty when unset. */
  settingPath: string;
  /** Interpreter selected in the Python extension, when that extension is installed. */
  pythonInterpreter: string | undefined;
}

const PYTHON_NAME = /^python(?:\d+(?:\.\d+)*)?(?:w)?(?:\.exe)?$/i;

/** A setting may point at the safereq executable or at a Python interpreter that has safereq installed. */
export function looksLikePython(path: string): boolean {
  const base = path.split(/[\\/]/).pop() ?? '';
  return PYTHON_NAME.test(base);
}

export function executableSpec(command: string, source: LaunchSource): LaunchSpec {
  return { command, args: ['serve'], source };
}

export function pythonSpec(python: string, source: LaunchSource): LaunchSpec {
  return { command: python, args: ['-m', 'safereq', 'serve'], source };
}

async function tryPython(python: string, source: LaunchSource, probes: Probes, attempts: Attempt[]) {
  if (await probes.pythonHasSafereq(python)) return pythonSpec(python, source);
  attempts.push({ source, candidate: python, problem: 'cannot import the safereq package' });
  return undefined;
}

export async function resolveServer(input: ResolveInput, probes: Probes): Promise<Resolution> {
  const attempts: Attempt[] = [];
  const setting = input.settingPath.trim();
  if (setting) {
    if (looksLikePython(setting)) {
      const spec = await tryPython(setting, 'setting', probes, attempts);
      if (spec) return { spec, attempts };
    } else {
      // A bare name such as "safereq" means a program on PATH; anything with a separator is a file path.
      const bare = !/[\\/]/.test(setting);
      const exe = bare ? await probes.findOnPath(setting) : (await probes.isExecutable(setting)) ? setting : undefined;
      if (exe) return { spec: executableSpec(exe, 'setting'), attempts };
      attempts.push({ source: 'setting', candidate: setting, problem: bare ? 'not found on PATH' : 'is not an executable file' });
    }
  }
  if (input.pythonInterpreter) {
    const spec = await tryPython(input.pythonInterpreter, 'python', probes, attempts);
    if (spec) return { spec, attempts };
  }
  const onPath = await probes.findOnPath('safereq');
  if (onPath) return { spec: executableSpec(onPath, 'path'), attempts };
  attempts.push({ source: 'path', candidate: 'safereq', problem: 'not found on PATH' });
  return { spec: undefined, attempts };
}

/**
 * The one command that installs the server where the extension will look for it next time: into the selected
 * interpreter when there is one, otherwise as a stand-alone tool on PATH.
 */
export function installCommand(pythonInterpreter: string | undefined, platform: NodeJS.Platform): string {
  if (pythonInterpreter) return `${quoteArg(pythonInterpreter, platform)} -m pip install safereq`;
  return 'pipx install safereq';
}

/** The matching upgrade command, for a server too old to offer a command the extension needs. */
export function upgradeCommand(pythonInterpreter: string | undefined, platform: NodeJS.Platform): string {
  if (pythonInterpreter) return `${quoteArg(pythonInterpreter, platform)} -m pip install --upgrade safereq`;
  return 'pipx upgrade safereq';
}

/** Quotes a path for the user's shell only when it needs it. */
export function quoteArg(arg: string, platform: NodeJS.Platform): string {
  if (/^[\w@%+=:,./\\-]+$/.test(arg)) return arg;
  return platform === 'win32' ? `"${arg.replace(/"/g, '""')}"` : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Expands `~` and `${workspaceFolder}` in `safereq.server.path`, and resolves a relative path against the
 * workspace folder, so that a team can commit a setting such as `.venv/bin/safereq`.
 */
export function expandSettingPath(
  raw: string,
  home: string,
  workspaceFolder: string | undefined,
  join: (...parts: string[]) => string,
  isAbsolute: (p: string) => boolean,
): string {
  let p = raw.trim();
  if (!p) return '';
  if (workspaceFolder) p = p.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~\\')) return join(home, p.slice(2));
  if (!isAbsolute(p) && /[\\/]/.test(p) && workspaceFolder) return join(workspaceFolder, p);
  return p;
}

export function describeSpec(spec: LaunchSpec): string {
  const from = { setting: 'safereq.server.path', python: 'the selected Python interpreter', path: 'PATH' }[spec.source];
  return `${[spec.command, ...spec.args].join(' ')} (from ${from})`;
}
