import { describe, expect, it } from 'vitest';
import { EventIds } from './event-ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('event ids', () => {
  it('are UUIDs of version 7 carrying the time in ms', () => {
    const at = Date.UTC(2026, 10, 23, 12, 0, 0, 123);
    const id = new EventIds().next(at);
    expect(id).toMatch(V7);
    expect(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
  });

  it('strictly increase, also many within one millisecond and when the clock steps back', () => {
    const ids = new EventIds();
    const at = Date.UTC(2026, 10, 23);
    const made = [
      ...Array.from({ length: 5_000 }, () => ids.next(at)),
      ids.next(at - 10),
      ids.next(at + 5),
      ids.next(at + 5),
    ];
    for (const id of made) expect(id).toMatch(V7);
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
  });
});
