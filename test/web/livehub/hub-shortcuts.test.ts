import { describe, expect, it } from 'vitest';
import { hubShortcut } from '../../../src/web/livehub/hub-shortcuts';

/** A focused element: `typing` when it sits in a field the seller types in. */
const element = (typing: boolean, editable = false) => ({ closest: () => (typing ? {} : null), isContentEditable: editable }) as unknown as EventTarget;
const noWindow = { querySelector: () => null };
const openWindow = { querySelector: () => ({}) as Element };
const key = (k: string, over: Partial<KeyboardEvent> = {}) => ({
  key: k,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  repeat: false,
  target: element(false),
  ...over,
});

describe('the Hub keyboard shortcuts', () => {
  it('N opens the next lot and 1, 2, 3 press the three timer buttons', () => {
    expect(hubShortcut(key('n'), noWindow)).toEqual({ kind: 'next' });
    expect(hubShortcut(key('N'), noWindow)).toEqual({ kind: 'next' });
    expect(['1', '2', '3'].map((k) => hubShortcut(key(k), noWindow))).toEqual([0, 1, 2].map((index) => ({ kind: 'timer', index })));
    expect(hubShortcut(key('4'), noWindow)).toBeNull();
    expect(hubShortcut(key('Enter'), noWindow)).toBeNull();
  });

  it('does nothing while typing, with a modifier held, on a held key, or under an open window', () => {
    expect(hubShortcut(key('n', { target: element(true) }), noWindow)).toBeNull();
    expect(hubShortcut(key('1', { target: element(false, true) }), noWindow)).toBeNull();
    for (const mod of ['altKey', 'ctrlKey', 'metaKey', 'shiftKey', 'repeat'] as const) expect(hubShortcut(key('1', { [mod]: true }), noWindow)).toBeNull();
    expect(hubShortcut(key('n'), openWindow)).toBeNull();
  });
});
