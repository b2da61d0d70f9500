import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpointNotes } from './delivery-store.js';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 24) + ms);

/** The rule for one attempt at a time: a success clears failing_since, a failure keeps the earliest failure. */
function oneByOne(start: Date | null, outcomes: { ok: boolean; at: Date }[]): Date | null {
  let since = start;
  for (const o of [...outcomes].sort((a, b) => a.at.getTime() - b.at.getTime())) since = o.ok ? null : (since ?? o.at);
  return since;
}

/** What the note statement makes of an endpoint's failing_since (webhook_note_endpoints). */
function applied(start: Date | null, note: { reset: boolean; since: Date | null } | undefined): Date | null {
  if (!note) return start;
  return note.reset ? note.since : (start ?? note.since);
}

describe('endpointNotes', () => {
  it('says an endpoint whose last attempt of the batch succeeded is not failing', () => {
    const notes = endpointNotes([
      { id: 1, ok: false, at: at(0) },
      { id: 1, ok: true, at: at(5) },
    ]);
    expect(notes.get(1)).toEqual({ reset: true, since: null });
  });

  it('dates a failing endpoint from its first failure after its last success', () => {
    const notes = endpointNotes([
      { id: 1, ok: false, at: at(9) },
      { id: 1, ok: true, at: at(2) },
      { id: 1, ok: false, at: at(4) },
      { id: 2, ok: false, at: at(1) },
    ]);
    expect(notes.get(1)).toEqual({ reset: true, since: at(4) });
    expect(notes.get(2)).toEqual({ reset: false, since: at(1) });
  });

  it('leaves every endpoint as recording its attempts one by one would', () => {
    const outcome = fc.record({
      id: fc.integer({ min: 1, max: 3 }),
      ok: fc.boolean(),
      at: fc.integer({ min: 0, max: 1e6 }),
    });
    fc.assert(
      fc.property(
        fc.array(outcome, { maxLength: 20 }),
        fc.array(fc.option(fc.integer({ min: -1e6, max: 0 }), { nil: null }), { minLength: 3, maxLength: 3 }),
        (raw, starts) => {
          // Times differ: two attempts of a batch end at distinct moments in this model.
          const outcomes = raw.map((o, n) => ({ id: o.id, ok: o.ok, at: at(o.at * 100 + n) }));
          const notes = endpointNotes(outcomes);
          for (const id of [1, 2, 3]) {
            const startMs = starts[id - 1];
            const start = startMs === null || startMs === undefined ? null : at(startMs);
            const own = outcomes.filter((o) => o.id === id);
            expect(applied(start, notes.get(id))).toEqual(oneByOne(start, own));
          }
        },
      ),
    );
  });
});
