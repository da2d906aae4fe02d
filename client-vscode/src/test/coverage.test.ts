import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { coverageLine, parseCoverage } from '../coverage';

const ANSWER = {
  items: 12,
  holes: 3,
  coverage: [
    { measure: 'covered', covered: 3, total: 4, percent: 75 },
    { measure: 'refined', covered: 5, total: 6, percent: 83.3 },
    { measure: 'verified', covered: 7, total: 8, percent: 87.5 },
  ],
  path: '/ws/.safereq/report/index.html',
};

describe('coverage', () => {
  it('reads the server answer and writes the tooltip line', () => {
    const summary = parseCoverage(ANSWER);
    assert.equal(summary?.path, '/ws/.safereq/report/index.html');
    assert.equal(coverageLine(summary), 'Coverage: covered 75% (3/4) · refined 83.3% (5/6) · verified 87.5% (7/8) · 3 holes');
  });
  it('says one hole in the singular and nothing when nothing is measured', () => {
    assert.match(coverageLine(parseCoverage({ ...ANSWER, holes: 1 })) ?? '', /· 1 hole$/);
    assert.equal(coverageLine(parseCoverage({ items: 0, holes: 0, coverage: [] })), undefined);
  });
  it('ignores answers of another shape and rows it cannot read', () => {
    assert.equal(parseCoverage(null), undefined);
    assert.equal(parseCoverage({ items: '3', holes: 0, coverage: [] }), undefined);
    const summary = parseCoverage({ ...ANSWER, coverage: [{ measure: 'x', covered: 'a' }, ANSWER.coverage[0]] });
    assert.deepEqual(summary?.coverage, [ANSWER.coverage[0]]);
    assert.equal(parseCoverage({ ...ANSWER, path: 3 })?.path, undefined);
  });
});
