import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { statusView } from '../status';

describe('statusView', () => {
  it('shows the index state once the server is ready', () => {
    const v = statusView({ client: 'running', server: { state: 'ready', message: '', index: '/ws/.safereq/index' }, launch: 'safereq serve (from PATH)' });
    assert.equal(v.text, '$(shield) safereq · indexed');
    assert.match(v.tooltip, /Index: \/ws\/\.safereq\/index/);
    assert.match(v.tooltip, /Server: safereq serve \(from PATH\)/);
    assert.equal(v.severity, 'normal');
  });
  it('says when there is no index', () => {
    const v = statusView({ client: 'running', server: { state: 'ready', message: '', index: null }, launch: undefined });
    assert.equal(v.text, '$(shield) safereq · no index');
    assert.match(v.tooltip, /Index: not built/);
  });
  it('says when the index is damaged, and how to repair it', () => {
    const problem = 'the index at /ws/.safereq/index is damaged: version 6 cannot be read: file size is too small';
    const v = statusView({ client: 'running', server: { state: 'ready', message: '', index: '/ws/.safereq/index', indexProblem: problem }, launch: undefined });
    assert.equal(v.text, '$(warning) safereq · index damaged');
    assert.match(v.tooltip, /version 6 cannot be read/);
    assert.match(v.tooltip, /Index Knowledge Base/);
    assert.equal(v.severity, 'warning');
  });
  it('spins while indexing and shows the server message', () => {
    const v = statusView({ client: 'running', server: { state: 'indexing', message: '3 of 9 documents', index: null }, launch: undefined });
    assert.match(v.text, /sync~spin.*indexing/);
    assert.match(v.tooltip, /3 of 9 documents/);
  });
  it('marks server errors, missing servers and failed starts', () => {
    assert.equal(statusView({ client: 'running', server: { state: 'error', message: 'x', index: null }, launch: undefined }).severity, 'error');
    assert.equal(statusView({ client: 'notFound', server: undefined, launch: undefined }).severity, 'warning');
    assert.equal(statusView({ client: 'failed', server: undefined, launch: undefined }).severity, 'error');
  });
  it('treats a running client without a status notification yet as starting', () => {
    assert.match(statusView({ client: 'running', server: undefined, launch: undefined }).text, /sync~spin/);
  });
});
