/** Keeps package.json, the protocol constants and the wiring in extension.ts in agreement. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ClientCommand, ServerCommand } from '../protocol';

const ROOT = path.join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const extensionSource = readFileSync(path.join(ROOT, 'src', 'extension.ts'), 'utf8');

describe('package.json', () => {
  it('contributes exactly the commands the extension registers', () => {
    const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
    assert.deepEqual(contributed, Object.values(ClientCommand).sort());
    for (const key of Object.keys(ClientCommand)) {
      assert.match(extensionSource, new RegExp(`ClientCommand\\.${key}\\b`), `${key} is registered in extension.ts`);
    }
  });
  it('never reuses a server command id (vscode-languageclient registers those itself)', () => {
    const serverIds = new Set<string>(Object.values(ServerCommand));
    for (const id of Object.values(ClientCommand)) assert.ok(!serverIds.has(id), id);
  });
  it('declares the settings agreed with the server, and no API key setting', () => {
    const props = Object.keys(manifest.contributes.configuration.properties).sort();
    assert.deepEqual(props, [
      'safereq.corpora.paths',
      'safereq.index.path',
      'safereq.llm.baseUrl',
      'safereq.llm.model',
      'safereq.rules',
      'safereq.server.path',
      'safereq.trace.server',
    ]);
    assert.ok(!props.some((p) => /key|token|secret/i.test(p)));
    assert.equal(manifest.contributes.configuration.properties['safereq.index.path'].default, '.safereq/index');
  });
  it('activates for Markdown and for workspaces with a safereq.toml', () => {
    assert.deepEqual(manifest.activationEvents, ['onLanguage:markdown', 'workspaceContains:**/safereq.toml']);
  });
  it('ships what vsce and the marketplace need', () => {
    assert.equal(manifest.license, 'Apache-2.0');
    assert.equal(manifest.main, './dist/extension.js');
    for (const file of [manifest.icon, 'LICENSE', 'README.md', 'CHANGELOG.md']) {
      assert.doesNotThrow(() => readFileSync(path.join(ROOT, file)), file);
    }
  });
  it('has a walkthrough whose steps have their media, and whose buttons run commands that exist', () => {
    const [walkthrough] = manifest.contributes.walkthroughs;
    assert.equal(walkthrough.id, 'gettingStarted');
    const titles = walkthrough.steps.map((s: { title: string }) => s.title);
    assert.deepEqual(titles, [
      'Open or create a requirements folder',
      'See the first findings and a quick fix',
      'Index a standard you own',
      'Set a model endpoint and key',
      'Run a suggestion and accept it',
      'Open the traceability report',
    ]);
    const ours = new Set<string>(Object.values(ClientCommand));
    const workbench = new Set(['workbench.action.files.openFolder', 'workbench.actions.view.problems', 'workbench.action.openSettings']);
    const ignore = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!media\/\*\*$/m, 'the media go into the .vsix');
    for (const step of walkthrough.steps) {
      assert.doesNotThrow(() => readFileSync(path.join(ROOT, step.media.markdown)), step.media.markdown);
      const links = [...step.description.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]);
      assert.ok(links.length > 0, `${step.id} has a button`);
      for (const id of links) assert.ok(ours.has(id) || workbench.has(id), `${step.id}: unknown command ${id}`);
      assert.ok(step.completionEvents.length > 0, `${step.id} can be completed`);
    }
  });
});
