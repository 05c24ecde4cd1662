// The prose sweep of an index build's kept documents (search/kept-documents.ts) is made once, at the
// build's publish: not each time the background count catches up with the build's reading (the bench
// tree's MCP build made it 5-6 times, each a pass over every document counted so far).
import { expect, it } from 'vitest';
import { sweepHeld } from '../../../src/rank/prose-sweep.js';
import { keepDocument, keptCountIdle, keptLinesCounted, keptPublished } from '../../../src/workspace/search/kept-documents.js';

const WORDS = ['garden', 'tomato', 'soil', 'water', 'sunlight', 'compost', 'seed', 'harvest'];
const note = (n: number): Uint8Array => new TextEncoder().encode(
  Array.from({ length: 20 }, (_, i) => `The ${WORDS[(n + i) % 8]} needs ${WORDS[(n * 3 + i) % 8]} in spring ${n} line ${i}.`).join('\n'));

it('a build\'s documents are swept once, at its publish, however often the count catches up; a search\'s count sweeps at once', async () => {
  const made = sweepHeld().made;
  // A build reads 100 documents, the count catches up, then 100 more, and it catches up again.
  for (let n = 0; n < 100; n++) keepDocument(`build:${n}`, note(n));
  await keptCountIdle();
  expect(sweepHeld()).toMatchObject({ made, documents: 0 });
  for (let n = 100; n < 200; n++) keepDocument(`build:${n}`, note(n));
  await keptCountIdle();
  expect(sweepHeld()).toMatchObject({ made, documents: 0 });
  // The publish sweeps all of them, once.
  keptPublished({ now: true });
  await keptCountIdle();
  expect(sweepHeld()).toMatchObject({ made: made + 1, documents: 200 });
  // A build that never publishes (it failed): the next search's count sweeps its documents.
  for (let n = 200; n < 300; n++) keepDocument(`build:${n}`, note(n));
  await keptCountIdle();
  expect(sweepHeld()).toMatchObject({ made: made + 1, documents: 200 });
  await keptLinesCounted();
  expect(sweepHeld()).toMatchObject({ made: made + 2, documents: 300 });
});
