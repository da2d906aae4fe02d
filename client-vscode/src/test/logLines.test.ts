import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { LineBuffer, clientEntry, serverEntry } from '../logLines';

describe('log lines', () => {
  it("drops the client's own time stamp and keeps its level", () => {
    assert.deepEqual(clientEntry('[Error - 10:08:26 PM] Server process exited with code 3.'),
      { level: 'error', text: 'Server process exited with code 3.' });
    assert.deepEqual(clientEntry('[Info  - 10:08:27 PM] The language server exited; starting it again after 500 ms (restart 1).'),
      { level: 'info', text: 'The language server exited; starting it again after 500 ms (restart 1).' });
    assert.deepEqual(clientEntry('[Error - 10:07:50 PM] Request textDocument/rename failed.\n  Message: SG-2 is already defined\n  Code: -32803 '),
      { level: 'error', text: 'Request textDocument/rename failed.\n  Message: SG-2 is already defined\n  Code: -32803' });
  });
  it('drops the stray booleans and empty entries', () => {
    for (const s of ['true', 'false', '', '  \n', '[Error - 10:08:26 PM]  ']) assert.equal(clientEntry(s), undefined);
  });
  it("reads the server's level word", () => {
    assert.deepEqual(serverEntry('INFO safereq.lsp.loading: 7 documents, 23 items loaded in 0.1 s'),
      { level: 'info', text: 'safereq.lsp.loading: 7 documents, 23 items loaded in 0.1 s' });
    assert.deepEqual(serverEntry('WARNING pygls.protocol.json_rpc: Server shutting down.'),
      { level: 'warn', text: 'pygls.protocol.json_rpc: Server shutting down.' });
    assert.deepEqual(serverEntry('ERROR safereq.lsp: boom'), { level: 'error', text: 'safereq.lsp: boom' });
    assert.deepEqual(serverEntry('  File "x.py", line 3'), { level: 'info', text: '  File "x.py", line 3' });
    assert.equal(serverEntry(''), undefined);
  });
  it('joins chunks into lines, so each server line is one entry', () => {
    const b = new LineBuffer();
    assert.deepEqual(b.push('INFO a: one\nINFO b: t'), ['INFO a: one']);
    assert.deepEqual(b.push('wo\n\nINFO c'), ['INFO b: two', '']);
    assert.deepEqual(b.flush(), ['INFO c']);
    assert.deepEqual(b.flush(), []);
  });
});
