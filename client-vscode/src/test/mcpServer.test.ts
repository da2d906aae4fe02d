import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { MCP_PROVIDER_ID, mcpCommand, registerMcpServer, type McpApi, type McpSource } from '../mcpServer';
import type { LaunchSpec } from '../launch/resolve';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

/** A stand-in for the parts of `vscode` the provider uses, recording what it registers. */
function fakeApi() {
  const registered: { id: string; provider: any }[] = [];
  class Definition {
    cwd: unknown;
    constructor(public label: string, public command: string, public args: string[] = [],
      public env: Record<string, string | number | null> = {}, public version?: string) {}
  }
  const api = {
    lm: { registerMcpServerDefinitionProvider: (id: string, provider: unknown) => {
      registered.push({ id, provider });
      return { dispose: () => undefined };
    } },
    McpStdioServerDefinition: Definition,
  } as unknown as McpApi;
  return { api, registered };
}

function event<T>() {
  const listeners: Array<(e: T) => void> = [];
  const on = (l: (e: T) => void) => (listeners.push(l), { dispose: () => undefined });
  return { on: on as any, fire: (e: T) => listeners.forEach((l) => l(e)) };
}

function source(spec: LaunchSpec | undefined, folders: string[], key?: string) {
  const specChanged = event<void>();
  const foldersChanged = event<unknown>();
  const src: McpSource = {
    launchSpec: spec,
    settled: async () => undefined,
    onDidChangeSpec: specChanged.on,
    folders: () => folders.map((f) => ({ fsPath: f, uri: { fsPath: f } as any })),
    onDidChangeFolders: foldersChanged.on,
    apiKey: async () => key,
    apiKeyEnv: 'SAFEREQ_LLM_API_KEY',
    version: '0.1.0',
  };
  return { src, specChanged };
}

describe('the MCP server definition', () => {
  it('is contributed in package.json with the id the extension registers', () => {
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [{ id: MCP_PROVIDER_ID, label: 'safereq' }]);
  });

  it('starts the server the language server is started with, as `mcp` over the workspace folders', () => {
    assert.deepEqual(mcpCommand({ command: '/venv/bin/python', args: ['-m', 'safereq', 'serve'], source: 'python' }, ['/ws']),
      { command: '/venv/bin/python', args: ['-m', 'safereq', 'mcp', '/ws'] });
    assert.deepEqual(mcpCommand({ command: '/usr/bin/safereq', args: ['serve'], source: 'path' }, ['/a', '/b']),
      { command: '/usr/bin/safereq', args: ['mcp', '/a', '/b'] });
  });

  it('provides one stdio definition with the folder as working directory, and the key only when resolved', async () => {
    const { api, registered } = fakeApi();
    const { src } = source({ command: '/usr/bin/safereq', args: ['serve'], source: 'path' }, ['/ws'], 'sk-test');
    assert.ok(registerMcpServer(api, src));
    assert.equal(registered.length, 1);
    assert.equal(registered[0].id, MCP_PROVIDER_ID);
    const [def] = await registered[0].provider.provideMcpServerDefinitions();
    assert.equal(def.label, 'safereq');
    assert.deepEqual([def.command, def.args], ['/usr/bin/safereq', ['mcp', '/ws']]);
    assert.equal(def.cwd.fsPath, '/ws');
    assert.deepEqual(def.env, {}, 'no secret in the listed definition');
    const resolved = await registered[0].provider.resolveMcpServerDefinition(def);
    assert.equal(resolved.env.SAFEREQ_LLM_API_KEY, 'sk-test');
  });

  it('provides nothing without a server or a folder, and says when that changes', async () => {
    const { api, registered } = fakeApi();
    const { src, specChanged } = source(undefined, ['/ws']);
    registerMcpServer(api, src);
    assert.deepEqual(await registered[0].provider.provideMcpServerDefinitions(), []);
    let fired = 0;
    registered[0].provider.onDidChangeMcpServerDefinitions(() => fired++);
    specChanged.fire();
    assert.equal(fired, 1);
    const none = fakeApi();
    registerMcpServer(none.api, source({ command: 'safereq', args: ['serve'], source: 'path' }, []).src);
    assert.deepEqual(await none.registered[0].provider.provideMcpServerDefinitions(), []);
  });

  it('registers nothing in a VS Code without the MCP API', () => {
    const old = { lm: {} } as McpApi;
    assert.equal(registerMcpServer(old, source(undefined, ['/ws']).src), undefined);
    assert.equal(registerMcpServer({} as McpApi, source(undefined, ['/ws']).src), undefined, 'no lm namespace at all');
  });

  it('registers nothing, and does not throw, where the API refuses the provider (VS Code 1.100)', () => {
    const refusing = { ...fakeApi().api, lm: { registerMcpServerDefinitionProvider: () => {
      throw new Error('MCP configuration providers must be registered in contributes.modelContextServerCollections');
    } } } as unknown as McpApi;
    assert.equal(registerMcpServer(refusing, source(undefined, ['/ws']).src), undefined);
  });
});
