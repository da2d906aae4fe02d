import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  expandSettingPath,
  installCommand,
  looksLikePython,
  quoteArg,
  resolveServer,
  upgradeCommand,
  type Probes,
} from '../launch/resolve';

/** Probes over a fake machine: a set of executable files, PATH entries and interpreters that have safereq. */
function fakeProbes(opts: { executables?: string[]; onPath?: Record<string, string>; pythonsWithSafereq?: string[] }) {
  const calls: string[] = [];
  const probes: Probes = {
    isExecutable: async (p) => (calls.push(`exe ${p}`), (opts.executables ?? []).includes(p)),
    findOnPath: async (n) => (calls.push(`path ${n}`), opts.onPath?.[n]),
    pythonHasSafereq: async (p) => (calls.push(`py ${p}`), (opts.pythonsWithSafereq ?? []).includes(p)),
  };
  return { probes, calls };
}

describe('resolveServer', () => {
  it('prefers the setting when it points at an executable', async () => {
    const { probes, calls } = fakeProbes({ executables: ['/opt/sr/safereq'], onPath: { safereq: '/usr/bin/safereq' } });
    const r = await resolveServer({ settingPath: '/opt/sr/safereq', pythonInterpreter: '/venv/bin/python' }, probes);
    assert.deepEqual(r.spec, { command: '/opt/sr/safereq', args: ['serve'], source: 'setting' });
    assert.deepEqual(calls, ['exe /opt/sr/safereq']);
  });

  it('runs a Python interpreter given in the setting as python -m safereq serve', async () => {
    const { probes } = fakeProbes({ pythonsWithSafereq: ['/venv/bin/python3.11'] });
    const r = await resolveServer({ settingPath: '/venv/bin/python3.11', pythonInterpreter: undefined }, probes);
    assert.deepEqual(r.spec, { command: '/venv/bin/python3.11', args: ['-m', 'safereq', 'serve'], source: 'setting' });
  });

  it('looks a bare name in the setting up on PATH', async () => {
    const { probes } = fakeProbes({ onPath: { 'safereq-dev': '/usr/local/bin/safereq-dev' } });
    const r = await resolveServer({ settingPath: 'safereq-dev', pythonInterpreter: undefined }, probes);
    assert.equal(r.spec?.command, '/usr/local/bin/safereq-dev');
  });

  it('falls back to the selected interpreter, then PATH, recording what failed', async () => {
    const { probes } = fakeProbes({ onPath: { safereq: '/usr/bin/safereq' } });
    const r = await resolveServer({ settingPath: '/missing/safereq', pythonInterpreter: '/venv/bin/python' }, probes);
    assert.deepEqual(r.spec, { command: '/usr/bin/safereq', args: ['serve'], source: 'path' });
    assert.deepEqual(
      r.attempts.map((a) => [a.source, a.candidate]),
      [
        ['setting', '/missing/safereq'],
        ['python', '/venv/bin/python'],
      ],
    );
  });

  it('uses the selected interpreter when it has safereq', async () => {
    const { probes, calls } = fakeProbes({ pythonsWithSafereq: ['/venv/bin/python'], onPath: { safereq: '/usr/bin/safereq' } });
    const r = await resolveServer({ settingPath: '', pythonInterpreter: '/venv/bin/python' }, probes);
    assert.equal(r.spec?.source, 'python');
    assert.ok(!calls.includes('path safereq'), 'PATH is not searched once a candidate works');
  });

  it('reports every attempt when nothing works', async () => {
    const { probes } = fakeProbes({});
    const r = await resolveServer({ settingPath: '', pythonInterpreter: '/venv/bin/python' }, probes);
    assert.equal(r.spec, undefined);
    assert.deepEqual(r.attempts.map((a) => a.source), ['python', 'path']);
  });
});

describe('install and upgrade commands', () => {
  it('installs into the selected interpreter when there is one', () => {
    assert.equal(installCommand('/home/me/proj/.venv/bin/python', 'linux'), '/home/me/proj/.venv/bin/python -m pip install safereq');
    assert.equal(upgradeCommand('/venv/bin/python', 'linux'), '/venv/bin/python -m pip install --upgrade safereq');
  });
  it('installs a stand-alone tool otherwise', () => {
    assert.equal(installCommand(undefined, 'linux'), 'pipx install safereq');
    assert.equal(upgradeCommand(undefined, 'darwin'), 'pipx upgrade safereq');
  });
  it('quotes paths with spaces for the platform shell', () => {
    assert.equal(quoteArg('/home/a b/python', 'linux'), "'/home/a b/python'");
    assert.equal(quoteArg("/it's/python", 'linux'), "'/it'\\''s/python'");
    assert.equal(quoteArg('C:\\Program Files\\Python\\python.exe', 'win32'), '"C:\\Program Files\\Python\\python.exe"');
  });
});

describe('looksLikePython', () => {
  it('recognises interpreter names only', () => {
    for (const p of ['/usr/bin/python3', 'python', 'C:\\Py\\python.exe', '/venv/bin/python3.11', 'pythonw.exe']) assert.ok(looksLikePython(p), p);
    for (const p of ['/usr/bin/safereq', '/opt/python/bin/safereq', 'python-lsp']) assert.ok(!looksLikePython(p), p);
  });
});

describe('expandSettingPath', () => {
  const expand = (raw: string, ws?: string) => expandSettingPath(raw, '/home/me', ws, path.posix.join, path.posix.isAbsolute);
  it('expands ~ and ${workspaceFolder}', () => {
    assert.equal(expand('~/.local/bin/safereq'), '/home/me/.local/bin/safereq');
    assert.equal(expand('${workspaceFolder}/.venv/bin/safereq', '/ws'), '/ws/.venv/bin/safereq');
  });
  it('resolves relative paths against the workspace folder but keeps bare names', () => {
    assert.equal(expand('.venv/bin/safereq', '/ws'), '/ws/.venv/bin/safereq');
    assert.equal(expand('safereq', '/ws'), 'safereq');
    assert.equal(expand('  '), '');
  });
});
