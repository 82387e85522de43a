import { AppError } from '../../../../server/platform/http/errors';
import { MAX_PROGRESS_PER_MEMBER, ProgressBoard, PROGRESS_TTL_MS, WAITING } from '../../../../server/platform/progress/board';

const ID = 'abcdefabcdefabcdef01';

describe('the progress of exports and imports', () => {
  it('shows a member only their own, cancels what runs and leaves what finished', () => {
    const board = new ProgressBoard();
    const p = board.begin(1, ID, 'read');
    p.phase('store', 1000);
    p.done(500);
    expect(board.view(1, ID)).toEqual({ phase: 'store', done: 500, total: 1000, state: 'running' });
    expect(board.view(2, ID)).toEqual(WAITING);
    expect(board.cancel(2, ID)).toBeUndefined();
    expect(p.signal.aborted).toBe(false);

    expect(board.cancel(1, ID)).toMatchObject({ state: 'cancelled', done: 500 });
    expect(p.signal.aborted).toBe(true);
    expect(() => p.check()).toThrow(AppError);
    // A cancelled import may not mark itself done: the throw rolls its transaction back.
    expect(() => p.finish()).toThrow(expect.objectContaining({ status: 409, key: 'progress.cancelled' }));
    p.done(900);
    expect(board.view(1, ID)).toMatchObject({ state: 'cancelled', done: 500 });

    const q = board.begin(1, 'another-id-0123456789', 'write');
    q.finish();
    expect(board.cancel(1, 'another-id-0123456789')).toMatchObject({ state: 'done' });
    expect(q.signal.aborted).toBe(false);
  });

  it('refuses an id already running for the member, and follows a request without id unseen', () => {
    const board = new ProgressBoard();
    board.begin(1, ID, 'write');
    expect(() => board.begin(1, ID, 'write')).toThrow(expect.objectContaining({ status: 409, key: 'progress.inUse' }));
    expect(() => board.begin(2, ID, 'write')).not.toThrow();
    const unseen = board.begin(1, undefined, 'write');
    unseen.abandon();
    expect(unseen.signal.aborted).toBe(true);
    expect(board.view(1, ID)).toMatchObject({ state: 'running' });
  });

  it('forgets entries nobody touched for the time to live, and keeps few per member', () => {
    let now = 1_000_000;
    const board = new ProgressBoard(() => now);
    const p = board.begin(1, ID, 'write');
    now += PROGRESS_TTL_MS - 1;
    p.done(1);
    now += PROGRESS_TTL_MS - 1;
    expect(board.view(1, ID)).toMatchObject({ done: 1 });
    now += 2;
    expect(board.view(1, ID)).toEqual(WAITING);

    for (let i = 0; i < MAX_PROGRESS_PER_MEMBER + 5; i++) {
      now++;
      board.begin(3, `member-three-${String(i).padStart(8, '0')}`, 'write').finish();
    }
    expect(board.view(3, 'member-three-00000000')).toEqual(WAITING);
    expect(board.view(3, `member-three-${String(MAX_PROGRESS_PER_MEMBER + 4).padStart(8, '0')}`)).toMatchObject({ state: 'done' });
  });
});
