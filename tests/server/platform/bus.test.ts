import { createBus, sharedView } from '../../../server/platform/bus';

interface Topics {
  a: { n: number };
  b: string;
}

const tick = () => new Promise((r) => setImmediate(r));

describe('the in-process bus', () => {
  it('delivers a payload to every subscriber of its topic, in subscription order, and to no other topic', () => {
    const bus = createBus<Topics>();
    const seen: string[] = [];
    bus.subscribe('a', (p) => void seen.push(`first ${p.n}`));
    bus.subscribe('a', (p) => void seen.push(`second ${p.n}`));
    bus.subscribe('b', (p) => void seen.push(`b ${p}`));
    bus.publish('a', { n: 1 });
    expect(seen).toEqual(['first 1', 'second 1']);
    bus.publish('b', 'x');
    expect(seen).toEqual(['first 1', 'second 1', 'b x']);
  });

  it('publishes to nobody without subscribers', () => {
    const errors: unknown[] = [];
    const bus = createBus<Topics>((e) => void errors.push(e));
    expect(() => bus.publish('a', { n: 1 })).not.toThrow();
    expect(errors).toEqual([]);
  });

  it('unsubscribes exactly the subscription whose function is called, even for a function subscribed twice', () => {
    const bus = createBus<Topics>();
    let count = 0;
    const h = () => void count++;
    const off1 = bus.subscribe('a', h);
    const off2 = bus.subscribe('a', h);
    bus.publish('a', { n: 1 });
    expect(count).toBe(2);
    off1();
    bus.publish('a', { n: 2 });
    expect(count).toBe(3);
    off2();
    off2(); // a second call changes nothing
    bus.publish('a', { n: 3 });
    expect(count).toBe(3);
  });

  it('lets a handler unsubscribe while the payload is being delivered without skipping the others', () => {
    const bus = createBus<Topics>();
    const seen: string[] = [];
    const off = bus.subscribe('a', () => {
      seen.push('once');
      off();
    });
    bus.subscribe('a', () => void seen.push('always'));
    bus.publish('a', { n: 1 });
    bus.publish('a', { n: 2 });
    expect(seen).toEqual(['once', 'always', 'always']);
  });

  it('reports a throwing or rejecting handler to onError and still delivers to the others', async () => {
    const errors: Array<[string, keyof Topics]> = [];
    const bus = createBus<Topics>((e, topic) => void errors.push([(e as Error).message, topic]));
    const seen: number[] = [];
    bus.subscribe('a', () => {
      throw new Error('sync');
    });
    bus.subscribe('a', async () => {
      throw new Error('async');
    });
    bus.subscribe('a', (p) => void seen.push(p.n));
    expect(() => bus.publish('a', { n: 7 })).not.toThrow();
    expect(seen).toEqual([7]);
    await tick();
    expect(errors).toEqual([
      ['sync', 'a'],
      ['async', 'a'],
    ]);
  });

  it('has one process: a shared subscription is a plain one, and the shared view subscribes through it', () => {
    const bus = createBus<Topics>();
    const seen: string[] = [];
    bus.subscribeShared!('a', 'g', (p) => void seen.push(`shared ${p.n}`));
    const view = sharedView(bus, 'derive');
    const off = view.subscribe('a', (p) => void seen.push(`view ${p.n}`));
    view.publish('a', { n: 1 });
    off();
    bus.publish('a', { n: 2 });
    expect(seen).toEqual(['shared 1', 'view 1', 'shared 2']);
  });
});
