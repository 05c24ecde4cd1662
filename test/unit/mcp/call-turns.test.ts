// The resident engine's read-only calls in turns (call-turns.ts): one at a time; an identical call still
// waiting shares one run, one already running is never joined; the fronts take turns; a front that went
// away drops what it still waited for; a cancelled call leaves its run, which stops when no caller is left.
import { describe, expect, it } from 'vitest';
import { callKey, createCallTurns } from '../../../src/mcp/call-turns.js';

/** A run that ends when told to, counting its starts. */
function gate(name: string, log: string[]) {
  let open!: () => void;
  const done = new Promise<void>((r) => { open = r; });
  return { run: async () => { log.push(`start ${name}`); await done; return name; }, open };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('call turns', () => {
  it('identical calls still waiting share one run; one already running is not joined', async () => {
    const log: string[] = [];
    const shared: number[] = [];
    const turns = createCallTurns<string>((_k, n) => shared.push(n));
    const first = gate('first', log);
    const second = gate('second', log);
    const a = turns.take(1, 'q', first.run);
    await tick();
    // `q` is running: a later identical call waits for a run of its own (the first may have read a file before an edit).
    const b = turns.take(2, 'q', second.run);
    const c = turns.take(3, 'q', gate('third', log).run);
    const d = turns.take(4, 'q', gate('fourth', log).run);
    expect(turns.waiting).toBe(3);
    first.open();
    expect(await a).toBe('first');
    await tick();
    second.open();
    expect(await Promise.all([b, c, d])).toEqual(['second', 'second', 'second']);
    expect(log).toEqual(['start first', 'start second']);
    expect(shared).toEqual([3]);
  });

  it('calls with other keys, or none, never share', async () => {
    const log: string[] = [];
    const turns = createCallTurns<string>();
    const hold = gate('hold', log);
    const h = turns.take(1, 'x', hold.run);
    const others = [turns.take(1, 'y', async () => 'y'), turns.take(2, null, async () => 'n1'), turns.take(3, null, async () => 'n2')];
    hold.open();
    expect(await h).toBe('hold');
    expect(await Promise.all(others)).toEqual(['y', 'n1', 'n2']);
  });

  it('fronts take turns: a burst of one front does not hold another front\'s call behind all of it', async () => {
    const order: string[] = [];
    const turns = createCallTurns<string>();
    const run = (name: string) => async () => { order.push(name); await tick(); return name; };
    const all = [turns.take(1, 'a1', run('a1')), turns.take(1, 'a2', run('a2')), turns.take(1, 'a3', run('a3')), turns.take(2, 'b1', run('b1')), turns.take(2, 'b2', run('b2')), turns.take(3, 'c1', run('c1'))];
    await Promise.all(all);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('a failed run fails every caller that shared it, and the next runs', async () => {
    const turns = createCallTurns<string>();
    const log: string[] = [];
    const hold = gate('hold', log);
    const h = turns.take(1, 'h', hold.run);
    const x = turns.take(2, 'q', async () => { throw new Error('boom'); });
    const y = turns.take(3, 'q', async () => 'never');
    const z = turns.take(3, 'z', async () => 'z');
    hold.open();
    await h;
    await expect(x).rejects.toThrow('boom');
    await expect(y).rejects.toThrow('boom');
    expect(await z).toBe('z');
  });

  it('a front that went away: its waiting calls are answered at once and not run, unless another front waits on them too', async () => {
    const log: string[] = [];
    const turns = createCallTurns<string>();
    const hold = gate('hold', log);
    const h = turns.take(1, 'h', hold.run);
    const alone = turns.take(2, 'only-2', async () => { log.push('ran only-2'); return 'x'; });
    const mine = turns.take(2, 'both', async () => { log.push('ran both'); return 'both'; });
    const theirs = turns.take(3, 'both', async () => 'not this one');
    turns.leave(2, 'gone');
    expect(await alone).toBe('gone');
    expect(await mine).toBe('gone');
    hold.open();
    await h;
    expect(await theirs).toBe('both');
    expect(log).toEqual(['start hold', 'ran both']);
  });

  it('a call cancelled while it waits is answered at once and never run; the next front\'s call runs after the one running', async () => {
    const log: string[] = [];
    const turns = createCallTurns<string>();
    const hold = gate('hold', log);
    const h = turns.take(1, 'h', hold.run);
    const stop = new AbortController();
    const cancelled = turns.take(2, 'c', async () => { log.push('ran c'); return 'c'; }, { signal: stop.signal, answer: 'cancelled' });
    const after = turns.take(3, 'n', async () => { log.push('ran n'); return 'n'; });
    stop.abort();
    expect(await cancelled).toBe('cancelled');
    expect(turns.waiting).toBe(1);
    hold.open();
    expect(await h).toBe('hold');
    expect(await after).toBe('n');
    // Before: 'ran c' between them (a scan nobody waited for, ahead of front 3's call).
    expect(log).toEqual(['start hold', 'ran n']);
    // One already cancelled is not queued at all.
    expect(await turns.take(4, 'x', async () => 'ran', { signal: AbortSignal.abort(), answer: 'cancelled' })).toBe('cancelled');
    expect(turns.waiting).toBe(0);
  });

  it('a shared run: a caller that cancels (waiting or running) leaves it, the others get the whole answer and its signal never aborts', async () => {
    const log: string[] = [];
    const left: number[] = [];
    const turns = createCallTurns<string>(undefined, (_k, n) => left.push(n));
    const hold = gate('hold', log);
    const h = turns.take(1, 'h', hold.run);
    let seen: AbortSignal | null = null;
    const shared = gate('shared', log);
    const run = (signal: AbortSignal) => { seen = signal; return shared.run(); };
    const [s2, s3, s4] = [new AbortController(), new AbortController(), new AbortController()];
    const two = turns.take(2, 'q', run, { signal: s2.signal, answer: 'cancelled' });
    const three = turns.take(3, 'q', run, { signal: s3.signal, answer: 'cancelled' });
    const four = turns.take(4, 'q', run, { signal: s4.signal, answer: 'cancelled' });
    s2.abort(); // while waiting
    expect(await two).toBe('cancelled');
    hold.open();
    await h;
    await tick();
    expect(log).toEqual(['start hold', 'start shared']);
    s3.abort(); // while running
    expect(await three).toBe('cancelled');
    expect(seen!.aborted).toBe(false);
    shared.open();
    expect(await four).toBe('shared');
    expect(left).toEqual([2, 1]);
  });

  it('a run every caller cancelled has its signal aborted and keeps its turn until it has wound down', async () => {
    const log: string[] = [];
    const turns = createCallTurns<string>();
    let seen: AbortSignal | null = null;
    const slow = gate('slow', log);
    const [a, b] = [new AbortController(), new AbortController()];
    const run = (signal: AbortSignal) => { seen = signal; return slow.run(); };
    const one = turns.take(1, 'q', async () => { log.push('first'); await tick(); return 'first'; });
    const two = turns.take(2, 'q', run, { signal: a.signal, answer: 'cancelled' });
    const three = turns.take(3, 'q', run, { signal: b.signal, answer: 'cancelled' });
    const next = turns.take(4, 'n', async () => { log.push('ran n'); return 'n'; });
    expect(await one).toBe('first');
    await tick();
    expect(log).toEqual(['first', 'start slow']);
    a.abort();
    expect(seen!.aborted).toBe(false);
    b.abort();
    expect(seen!.aborted).toBe(true);
    expect(await Promise.all([two, three])).toEqual(['cancelled', 'cancelled']);
    // The run has not ended (its gate is shut): the next call waits for it (a search's save of changed
    // files runs to its end, and a search run beside it answered from the index before it: mend41b).
    let settled = false;
    const done = turns.settled().then(() => { settled = true; });
    await tick();
    await tick();
    expect(log).toEqual(['first', 'start slow']);
    expect(settled).toBe(false);
    slow.open();
    expect(await next).toBe('n');
    expect(log).toEqual(['first', 'start slow', 'ran n']);
    await done;
  });

  it('a front that went away stops its call running unless another front shares it', async () => {
    const log: string[] = [];
    const turns = createCallTurns<string>();
    let seen: AbortSignal | null = null;
    const slow = gate('slow', log);
    const mine = turns.take(2, 'q', (signal) => { seen = signal; return slow.run(); });
    await tick();
    turns.leave(2, 'gone');
    expect(await mine).toBe('gone');
    expect(seen!.aborted).toBe(true);
    const next = turns.take(3, 'n', async () => { log.push('ran n'); return 'n'; });
    await tick();
    expect(log).toEqual(['start slow']);
    slow.open();
    expect(await next).toBe('n');
    expect(log).toEqual(['start slow', 'ran n']);
  });

  it('the key holds the tool and every argument, in any key order; index calls have none', () => {
    expect(callKey('search', { query: 'q', top_k: 5, types: ['ts'] })).toBe(callKey('search', { types: ['ts'], top_k: 5, query: 'q' }));
    expect(callKey('search', { query: 'q', top_k: 5 })).not.toBe(callKey('search', { query: 'q', top_k: 6 }));
    expect(callKey('search', { query: 'q' })).not.toBe(callKey('search', { query: 'q', directory: 'src' }));
    expect(callKey('search', { query: 'q', max_tokens: 500 })).not.toBe(callKey('search', { query: 'q' }));
    expect(callKey('search', { query: 'q', mode: 'lexical' })).not.toBe(callKey('search', { query: 'q', mode: 'hybrid' }));
    expect(callKey('search', { query: 'q', types: ['ts', 'md'] })).not.toBe(callKey('search', { query: 'q', types: ['ts'] }));
    expect(callKey('search', { query: 'q' })).not.toBe(callKey('find_related', { query: 'q' }));
    expect(callKey('index', {})).toBeNull();
  });
});
