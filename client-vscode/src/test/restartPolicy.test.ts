import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { RestartBackoff } from '../restartPolicy';

describe('RestartBackoff', () => {
  it('doubles the wait after each exit, then gives up', () => {
    const b = new RestartBackoff([100, 200, 400], 60_000);
    assert.deepEqual([b.next(0), b.next(1), b.next(2), b.next(3), b.next(4)], [100, 200, 400, undefined, undefined]);
    assert.equal(b.restarts, 3);
  });
  it('counts afresh after the server ran long enough', () => {
    const b = new RestartBackoff([100, 200], 60_000);
    assert.equal(b.next(0), 100);
    b.running(1_000);
    assert.equal(b.next(2_000), 200); // exited one second after starting: still a start-up failure
    b.running(3_000);
    assert.equal(b.next(70_000), 100); // ran for over a minute: a crash, not a failed start
  });
  it('the shipped delays grow exponentially and end', () => {
    const b = new RestartBackoff();
    const delays: number[] = [];
    for (let d = b.next(0); d !== undefined; d = b.next(0)) delays.push(d);
    assert.ok(delays.length >= 3 && delays.length <= 6);
    delays.slice(1).forEach((d, i) => assert.equal(d, delays[i] * 2));
  });
});
