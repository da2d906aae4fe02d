import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { refusalMessage } from '../refusals';

describe('refusalMessage', () => {
  it('reads the message of a RequestFailed or InvalidParams answer', () => {
    assert.equal(refusalMessage({ code: -32803, message: 'SG-2 is already defined (in goals.md, line 7)' }),
      'SG-2 is already defined (in goals.md, line 7)');
    assert.equal(refusalMessage({ code: -32602, message: " 'sg-1' is not an item ID " }), "'sg-1' is not an item ID");
  });
  it('leaves every other failure to the client', () => {
    for (const err of [undefined, null, 'text', new Error('boom'), { code: -32603, message: 'internal' },
      { code: -32800, message: 'cancelled' }, { code: -32803, message: '' }, { code: '-32803', message: 'x' }]) {
      assert.equal(refusalMessage(err), undefined);
    }
  });
});
