import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { isItemId, itemAtPosition, parseItemHeading } from '../items';

const DOC = [
  '---', //                                         0
  'id-prefix: FSR', //                              1
  '# not a heading in front matter', //             2
  '---', //                                         3
  '# Safety goals', //                              4
  '', //                                            5
  '## SG-1: Avoid a collision with a pedestrian', // 6
  'ASIL: D', //                                     7
  '', //                                            8
  '### FSR-PER-012: Detect degraded images', //     9
  'The system shall detect it.', //                10
  '```markdown', //                                11
  '## TSR-9: inside a fence', //                   12
  '```', //                                        13
  'still FSR-PER-012', //                          14
  '### Notes', //                                  15
  'belongs to SG-1 again', //                      16
  '## Glossary', //                                17
  'no item here', //                               18
  '## TSR_3.2: Underscores and dots', //           19
  'body', //                                       20
].join('\n');

describe('isItemId', () => {
  it('accepts the ID shapes of the document conventions', () => {
    for (const id of ['SG-1', 'FSR-PER-012', 'TSR_3.2', 'HWSR.1', 'HZ-07']) assert.ok(isItemId(id), id);
  });
  it('rejects IDs without a digit, lower case, or a leading digit', () => {
    for (const id of ['NOTE', 'sg-1', '1-SG', 'SG--1', 'SG-1-', 'SG 1']) assert.ok(!isItemId(id), id);
  });
});

describe('parseItemHeading', () => {
  it('reads level and ID', () => {
    assert.deepEqual(parseItemHeading('### FSR-1: Title'), { id: 'FSR-1', level: 3 });
    assert.deepEqual(parseItemHeading('## Overview'), { id: undefined, level: 2 });
    assert.deepEqual(parseItemHeading('## CLM-2: Claim ##'), { id: 'CLM-2', level: 2 });
  });
  it('ignores lines that are not ATX headings', () => {
    assert.equal(parseItemHeading('SG-1: not a heading'), undefined);
    assert.equal(parseItemHeading('#SG-1: no space'), undefined);
    assert.equal(parseItemHeading('    ## indented code'), undefined);
  });
});

describe('itemAtPosition', () => {
  const at = (line: number) => itemAtPosition(DOC, line)?.id;
  it('finds nothing before the first item and in front matter', () => {
    assert.equal(at(2), undefined);
    assert.equal(at(4), undefined);
  });
  it('finds the item on its own heading line and in its body', () => {
    assert.equal(at(6), 'SG-1');
    assert.equal(at(7), 'SG-1');
    assert.equal(at(10), 'FSR-PER-012');
  });
  it('does not treat headings inside fenced code as items', () => {
    assert.equal(at(12), 'FSR-PER-012');
    assert.equal(at(14), 'FSR-PER-012');
  });
  it('returns to the enclosing item after a deeper non-item heading', () => {
    assert.equal(at(16), 'SG-1');
  });
  it('ends an item at the next heading of the same level', () => {
    assert.equal(at(18), undefined);
    assert.equal(at(20), 'TSR_3.2');
  });
  it('clamps a line past the end', () => {
    assert.equal(at(1000), 'TSR_3.2');
  });
  it('handles CRLF line endings and non-ASCII titles', () => {
    assert.equal(itemAtPosition('## FSR-3: 摄像头图像退化检测\r\n系统应检测。\r\n', 1)?.id, 'FSR-3');
  });
});
