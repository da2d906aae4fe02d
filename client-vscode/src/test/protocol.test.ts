import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { progressStep } from '../progress';
import { parseReviewResult, parseStatus, parseSummary, parseTrace, suggestionMessage, summariseIndexResult } from '../protocol';

describe('server payloads', () => {
  it('accepts a well-formed status and normalises optional fields', () => {
    assert.deepEqual(parseStatus({ state: 'ready', message: 'ok', index: '12 chunks' }), { state: 'ready', message: 'ok', index: '12 chunks' });
    assert.deepEqual(parseStatus({ state: 'starting' }), { state: 'starting', message: '', index: null });
  });
  it('reads the index problem only when it is a non-empty string', () => {
    assert.equal(parseStatus({ state: 'ready', index: null, indexProblem: 'the index is damaged' })?.indexProblem, 'the index is damaged');
    for (const p of [null, '', '  ', 3]) assert.equal(parseStatus({ state: 'ready', indexProblem: p })?.indexProblem, undefined);
  });
  it('ignores statuses of another shape', () => {
    for (const raw of [null, 'ready', { state: 'done' }, { state: 3 }, []]) assert.equal(parseStatus(raw), undefined);
  });
  it('reads suggestion summaries and traces', () => {
    assert.deepEqual(parseSummary({ mode: 'llm', count: 2 }), { mode: 'llm', count: 2, message: '' });
    assert.deepEqual(parseSummary({ count: 0 }), { mode: '', count: 0, message: '' });
    assert.deepEqual(parseSummary({ count: 1, message: 'x' }), { mode: '', count: 1, message: 'x' });
    assert.equal(parseSummary({ count: '2' }), undefined);
    assert.deepEqual(parseTrace({ markdown: '# SG-1' }), { markdown: '# SG-1' });
    assert.equal(parseTrace({ md: '' }), undefined);
  });
});

describe('review messages', () => {
  const noun: [string, string] = ['trace link', 'trace links'];
  it("shows the server's own sentence of what happened", () => {
    const message = 'Suggest trace links for FSR-3: 3 suggestions proposed for review in fsr.md (offline); accept or reject each one there.';
    assert.equal(suggestionMessage({ mode: 'offline', count: 3, message }, 'FSR-3', noun), `safereq: ${message}`);
  });
  it('never says a proposal was added to the document', () => {
    assert.equal(suggestionMessage({ mode: 'llm', count: 1, message: '' }, 'FSR-3', noun), 'safereq: FSR-3: 1 trace link proposed for review (llm).');
    assert.equal(suggestionMessage({ mode: '', count: 0, message: '' }, 'FSR-3', noun), 'safereq: FSR-3: no trace links to propose.');
    for (const count of [0, 1, 5]) assert.doesNotMatch(suggestionMessage({ mode: '', count, message: '' }, 'X-1', noun), /added/);
  });
  it('reads accept / reject results and ignores other shapes', () => {
    const ok = { applied: true, accepted: 1, rejected: 0, left: 2, message: 'FSR-1: 1 suggestion accepted; 2 left for review.' };
    assert.deepEqual(parseReviewResult(ok), ok);
    assert.deepEqual(parseReviewResult({ applied: false, message: 'stale' }), { applied: false, accepted: 0, rejected: 0, left: 0, message: 'stale' });
    for (const raw of [null, 'done', { applied: 'yes', message: '' }, { applied: true }]) assert.equal(parseReviewResult(raw), undefined);
  });
});

describe('summariseIndexResult', () => {
  it('prefers a message, else lists a few scalar fields', () => {
    assert.equal(summariseIndexResult({ message: '1,204 chunks from 9 documents' }), '1,204 chunks from 9 documents');
    assert.equal(summariseIndexResult({ chunks: 42, documents: 3, nested: { a: 1 } }), 'chunks: 42, documents: 3');
    assert.equal(summariseIndexResult(null), '');
    assert.equal(summariseIndexResult('x'.repeat(500)).length, 200);
  });
});

describe('progressStep', () => {
  it('turns absolute percentages into increments', () => {
    const a = progressStep({ kind: 'begin', title: 'Indexing', percentage: 0 }, undefined);
    assert.deepEqual(a, { message: 'Indexing', increment: 0, percentage: 0 });
    const b = progressStep({ kind: 'report', message: 'doc 3/10', percentage: 30 }, a.percentage);
    assert.deepEqual(b, { message: 'doc 3/10', increment: 30, percentage: 30 });
    const c = progressStep({ kind: 'report', percentage: 25 }, b.percentage);
    assert.equal(c.increment, 0, 'never goes backwards');
    assert.equal(progressStep({ kind: 'report', percentage: 250 }, 90).increment, 10, 'clamped to 100');
  });
  it('passes messages through without a percentage', () => {
    assert.deepEqual(progressStep({ kind: 'report', message: 'reading' }, 40), { message: 'reading', increment: undefined, percentage: undefined });
  });
});
