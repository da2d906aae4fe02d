/** The real filesystem and process probes behind resolveServer (see resolve.ts). */
import { execFile } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Probes } from './resolve';

const PROBE_TIMEOUT_MS = 15_000;
const FIND_SPEC = 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("safereq") else 3)';

export async function isExecutable(file: string): Promise<boolean> {
  try {
    const st = await fs.stat(file);
    if (!st.isFile()) return false;
    if (process.platform !== 'win32') await fs.access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export async function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').concat(['']) : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (await isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Runs the interpreter once with a one-line import check; a missing or broken interpreter is simply "no". */
export function pythonHasSafereq(python: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(python, ['-c', FIND_SPEC], { timeout: PROBE_TIMEOUT_MS, windowsHide: true }, (err) => resolve(!err));
  });
}

export const nodeProbes: Probes = { isExecutable, findOnPath: (n) => findOnPath(n), pythonHasSafereq };
