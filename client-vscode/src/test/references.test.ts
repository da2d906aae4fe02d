import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { withoutRepeatedHeading, type Place } from '../references';

const same = (p: Place) => p;

describe('withoutRepeatedHeading', () => {
  const found: Place[] = [
    { uri: 'file:///ws/goals.md', line: 2 },
    { uri: 'file:///ws/fsr.md', line: 5 },
    { uri: 'file:///ws/fsr.md', line: 9 },
  ];
  it('leaves out the heading the request was made on', () => {
    const at = { uri: 'file:///ws/goals.md', line: 2, lineText: '## SG-1: Avoid a collision' };
    assert.deepEqual(withoutRepeatedHeading(found, at, same), found.slice(1));
  });
  it('keeps everything when the request was made on a link, not a heading', () => {
    const at = { uri: 'file:///ws/fsr.md', line: 5, lineText: '- Derived from: SG-1' };
    assert.deepEqual(withoutRepeatedHeading(found, at, same), found);
  });
  it('keeps the same line in another file and indented code that looks like a heading', () => {
    assert.deepEqual(withoutRepeatedHeading(found, { uri: 'file:///ws/other.md', line: 2, lineText: '## SG-1: x' }, same), found);
    assert.deepEqual(withoutRepeatedHeading(found, { uri: 'file:///ws/goals.md', line: 2, lineText: '    ## SG-1' }, same), found);
  });
});
