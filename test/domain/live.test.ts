import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isValidWhatsappLink,
  lotRemovalBlock,
  normalizeWhatsappLink,
  parsePickerQuery,
  pickerKind,
  sessionSlug,
  weekdayInMexicoCity,
  ZSessionCreate,
  ZTimerInput,
} from '../../src/domain/live.js';
import {
  formatTimer,
  type LotFacts,
  livePath,
  lotPhases,
  lotRan,
  type ShowFacts,
  slugify,
  splitLots,
  timerState,
  waitParts,
} from '../../src/domain/live-public.js';

/** The Live Hub's pure rules: slugs, WhatsApp links, the two lot lists, the timer badge, the picker query. */

const SLUG = /^[a-z0-9_]+(-[a-z0-9_]+)*$/;

describe('slugs (SPEC §5 "Create session")', () => {
  it('lower-cases, drops accents and symbols, turns spaces into single hyphens and trims them', () => {
    expect(slugify('  Relojes Antiguos de Doña Ñeca!! ')).toBe('relojes-antiguos-de-dona-neca');
    expect(slugify('--Hola -- mundo--')).toBe('hola-mundo');
    expect(slugify('snake_case ok')).toBe('snake_case-ok');
    expect(slugify('¡¡!!')).toBe('');
  });

  it('falls back to the title, then to the weekday of the scheduled date in Mexico City', () => {
    const when = Date.UTC(2030, 0, 3, 3); // Wednesday 21:00 in Mexico City, Thursday in UTC
    expect(weekdayInMexicoCity(when)).toBe('miércoles');
    expect(sessionSlug({ sellerSlug: 'Mi Tienda', title: 'Título', scheduledAt: when })).toBe('mi-tienda');
    expect(sessionSlug({ sellerSlug: '', title: 'Título Único', scheduledAt: when })).toBe('titulo-unico');
    expect(sessionSlug({ sellerSlug: null, title: '***', scheduledAt: when })).toBe('miercoles');
    expect(sessionSlug({ title: '!!', scheduledAt: Date.UTC(2030, 0, 5, 18) })).toBe('sabado');
  });

  it('is idempotent and always a well-formed slug or empty (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (raw) => {
        const slug = slugify(raw);
        expect(slugify(slug)).toBe(slug);
        expect(slug === '' || SLUG.test(slug)).toBe(true);
      }),
    );
  });

  it('never leaves a session without a slug (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        fc.string({ maxLength: 30 }),
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2999, 0, 1) }),
        (s, t, at) => {
          expect(sessionSlug({ sellerSlug: s, title: t, scheduledAt: at })).toMatch(SLUG);
        },
      ),
    );
  });

  it('builds the public link with or without a slug', () => {
    const id = '8f6f0b7e-6c4b-4f7f-9a51-0d9a6b1c2d3e';
    expect(livePath({ id, sellerSlug: 'mi-tienda' })).toBe(`/live/mi-tienda/${id}`);
    expect(livePath({ id, sellerSlug: '' })).toBe(`/live/${id}`);
  });
});

describe('WhatsApp group links (SPEC §5)', () => {
  it('accepts the three hosts and nothing that only looks like them', () => {
    for (const ok of ['https://wa.me/5213312345678', 'https://chat.whatsapp.com/AbCdEf', 'https://api.whatsapp.com/send?phone=52']) {
      expect(isValidWhatsappLink(ok), ok).toBe(true);
    }
    for (const bad of ['http://wa.me/1', 'https://wa.me.evil.com/x', 'https://evil.com/https://wa.me/', 'wa.me/123', 'https://chat.whatsapp.com', '']) {
      expect(isValidWhatsappLink(bad), bad).toBe(false);
    }
  });

  it('stores an empty link as null, and the schema refuses a bad one', () => {
    expect(normalizeWhatsappLink('   ')).toBeNull();
    expect(ZSessionCreate.parse({ title: 'a', scheduledAt: Date.UTC(2030, 0, 1), whatsappLink: '' }).whatsappLink).toBeNull();
    const bad = ZSessionCreate.safeParse({ title: 'a', scheduledAt: Date.UTC(2030, 0, 1), whatsappLink: 'https://t.me/x' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('whatsappInvalid');
  });
});

const lot = (id: string, order: number, over: Partial<LotFacts> = {}): LotFacts => ({
  id,
  order,
  status: 'queued',
  hasBids: false,
  auctionEnded: false,
  auctionTimed: false,
  offered: true,
  ...over,
});
const live = (currentLotId: string | null): ShowFacts => ({ currentLotId, status: 'live' });
const phasesOf = (lots: LotFacts[], show: ShowFacts) => Object.fromEntries(lotPhases(lots, show).map(({ lot, phase }) => [lot.id, phase]));

/** Facts a real lot can have: a closed auction is not on a clock; 'finished' comes with its close. */
const arbFacts = fc
  .record({
    status: fc.constantFrom('queued' as const, 'finished' as const, 'passed' as const),
    hasBids: fc.boolean(),
    auctionEnded: fc.boolean(),
    auctionTimed: fc.boolean(),
    offered: fc.boolean(),
  })
  .map((f) => ({ ...f, auctionEnded: f.auctionEnded || f.status === 'finished', auctionTimed: f.auctionTimed && !f.auctionEnded && f.status !== 'finished' }));
const arbShow = (ids: string[]) =>
  fc.record({
    currentLotId: ids.length ? fc.option(fc.constantFrom(...ids), { nil: null }) : fc.constant(null),
    status: fc.constantFrom('scheduled' as const, 'live' as const, 'paused' as const, 'ended' as const),
  });
const arbSession = fc
  .array(arbFacts, { maxLength: 12 })
  .map((facts) => facts.map((f, i) => lot(`l${i}`, i + 1, f)))
  .chain((lots) => fc.tuple(fc.constant(lots), arbShow(lots.map((l) => l.id))));

describe('Próximos and Pasados (SPEC §4 "Lot status")', () => {
  it('puts finished and passed lots, and lots before the current one, in the past; the current one always upcoming', () => {
    const lots = [lot('a', 1), lot('b', 2, { status: 'finished', auctionEnded: true }), lot('c', 3), lot('d', 4, { status: 'passed' }), lot('e', 5)];
    const { upcoming, past } = splitLots(lots, live('c'));
    expect(upcoming.map((l) => l.id)).toEqual(['c', 'e']);
    expect(past.map((l) => l.id)).toEqual(['a', 'b', 'd']);
    // The current lot is upcoming even when finished.
    expect(splitLots([lot('x', 1, { status: 'finished', auctionEnded: true })], live('x')).upcoming.map((l) => l.id)).toEqual(['x']);
  });

  it('keeps a lot still taking bids in the upcoming list; once its auction ended it is past', () => {
    const bidding = lot('a', 1, { hasBids: true, auctionTimed: true });
    expect(splitLots([bidding, lot('b', 2)], live('b')).upcoming.map((l) => l.id)).toEqual(['a', 'b']);
    const sold = lot('a', 1, { hasBids: true, auctionEnded: true, status: 'finished' });
    expect(splitLots([sold, lot('b', 2)], live('b')).past.map((l) => l.id)).toEqual(['a']);
  });

  it('splits every lot exactly once, each list in order (property)', () => {
    fc.assert(
      fc.property(arbSession, ([lots, show]) => {
        const { upcoming, past } = splitLots([...lots].reverse(), show);
        expect([...upcoming, ...past].map((l) => l.id).sort()).toEqual(lots.map((l) => l.id).sort());
        for (const list of [upcoming, past]) expect(list.map((l) => l.order)).toEqual([...list.map((l) => l.order)].sort((a, b) => a - b));
        if (show.currentLotId && show.status !== 'ended') expect(upcoming.map((l) => l.id)).toContain(show.currentLotId);
      }),
    );
  });
});

describe('the one lot rule of the Hub and the public page (lotPhase)', () => {
  it('a lot the seller skipped past has not been offered; one after the current lot is still to come', () => {
    const lots = [lot('a', 1, { status: 'finished', auctionEnded: true, hasBids: true }), lot('b', 2), lot('c', 3), lot('d', 4)];
    expect(phasesOf(lots, live('c'))).toEqual({ a: 'sold', b: 'notOffered', c: 'current', d: 'upcoming' });
  });

  it('a sold lot and an unsold one are decided wherever they sit; the current one stays on the block once it closed', () => {
    const lots = [
      lot('a', 1, { status: 'finished', auctionEnded: true, hasBids: true }),
      lot('b', 2, { status: 'finished', auctionEnded: true }),
      lot('c', 3, { status: 'finished', auctionEnded: true, hasBids: true }),
      // Was on the block (its run), then closed on its own end time after the current lot: decided too, not upcoming.
      lot('d', 4, { auctionEnded: true }),
      lot('e', 5),
    ];
    expect(phasesOf(lots, live('c'))).toEqual({ a: 'sold', b: 'unsold', c: 'current', d: 'unsold', e: 'upcoming' });
  });

  it('an auction that closed at its own end while its lot waited in the queue closed outside the show: not offered, sold or not', () => {
    const lots = [
      lot('a', 1, { status: 'finished', auctionEnded: true, hasBids: true }),
      lot('b', 2, { auctionTimed: true }),
      // Never on the block: their auctions' own end times came first (the server marks such lots passed).
      lot('c', 3, { status: 'passed', auctionEnded: true, hasBids: true, offered: false }),
      lot('d', 4, { status: 'passed', auctionEnded: true, offered: false }),
      lot('e', 5),
    ];
    expect(phasesOf(lots, live('b'))).toEqual({ a: 'sold', b: 'current', c: 'notOffered', d: 'notOffered', e: 'upcoming' });
    expect(phasesOf(lots, { currentLotId: 'b', status: 'ended' })).toMatchObject({ c: 'notOffered', d: 'notOffered' });
    expect(lots.filter((l) => lotRan(l)).map((l) => l.id)).toEqual(['a']);
    // An unsold one the seller runs again is on the block like any lot.
    const rerun = lot('d', 4, { auctionTimed: true, offered: true });
    expect(phasesOf([lots[0] as LotFacts, lots[1] as LotFacts, lots[2] as LotFacts, rerun], live('d'))).toMatchObject({ d: 'current' });
  });

  it('a lot re-run: back on the block, the skipped lots after it are upcoming again, and it is current once reopened', () => {
    const ranUnsold = lot('b', 2, { status: 'finished', auctionEnded: true });
    const lots = [
      lot('a', 1, { status: 'finished', auctionEnded: true, hasBids: true }),
      ranUnsold,
      lot('c', 3),
      lot('d', 4, { status: 'finished', auctionEnded: true }),
    ];
    expect(phasesOf(lots, live('d'))).toEqual({ a: 'sold', b: 'unsold', c: 'notOffered', d: 'current' });
    expect(phasesOf(lots, live('b'))).toEqual({ a: 'sold', b: 'current', c: 'upcoming', d: 'unsold' });
    const reopened = lot('b', 2, { auctionTimed: true });
    expect(phasesOf([lots[0] as LotFacts, reopened, lots[2] as LotFacts, lots[3] as LotFacts], live('b'))).toMatchObject({ b: 'current', c: 'upcoming' });
  });

  it('a quick auction on the block next leaves the queue behind it upcoming', () => {
    // The server gives it the order after the current lot and moves the rest down one.
    const lots = [lot('a', 1, { status: 'finished', auctionEnded: true }), lot('b', 2), lot('quick', 3, { auctionTimed: true }), lot('c', 4), lot('d', 5)];
    expect(phasesOf(lots, live('quick'))).toEqual({ a: 'unsold', b: 'notOffered', quick: 'current', c: 'upcoming', d: 'upcoming' });
  });

  it('once the session ended nothing is to come: a lot that never ran is not offered, never unsold', () => {
    const lots = [
      lot('a', 1, { status: 'finished', auctionEnded: true, hasBids: true }),
      lot('b', 2, { status: 'finished', auctionEnded: true }),
      lot('c', 3),
      lot('d', 4, { hasBids: true, auctionTimed: true }),
    ];
    expect(phasesOf(lots, { currentLotId: 'c', status: 'ended' })).toEqual({ a: 'sold', b: 'unsold', c: 'notOffered', d: 'notOffered' });
    // Ended mid-lot: the current lot's auction runs on until its timer closes it, and stays biddable.
    expect(phasesOf(lots, { currentLotId: 'd', status: 'ended' })).toMatchObject({ c: 'notOffered', d: 'current' });
  });

  it('a scheduled show with no current lot has everything still open to come', () => {
    expect(phasesOf([lot('b', 2), lot('a', 1)], { currentLotId: null, status: 'scheduled' })).toEqual({ a: 'upcoming', b: 'upcoming' });
  });

  it('a lot is unsold only if it ran, and sold only if it ran with a buyer (property)', () => {
    fc.assert(
      fc.property(arbSession, ([lots, show]) => {
        for (const { lot: l, phase } of lotPhases(lots, show)) {
          if (phase === 'unsold' || phase === 'sold') expect(lotRan(l)).toBe(true);
          if (phase === 'sold') expect(l.hasBids && l.auctionEnded).toBe(true);
          if (phase === 'notOffered') expect(lotRan(l)).toBe(false);
          if (lotRan(l) && l.id !== show.currentLotId) expect(phase).toBe(l.hasBids && l.auctionEnded ? 'sold' : 'unsold');
        }
      }),
    );
  });

  it('an ended session has nothing upcoming, and keeps on the block only a current lot still running (property)', () => {
    fc.assert(
      fc.property(arbSession, ([lots, show]) => {
        const phases = lotPhases(lots, show);
        const current = phases.filter((p) => p.phase === 'current');
        expect(current.length).toBeLessThanOrEqual(1);
        if (show.status === 'ended') {
          expect(phases.some((p) => p.phase === 'upcoming')).toBe(false);
          for (const { lot: l } of current) expect(l.auctionTimed && !lotRan(l)).toBe(true);
        } else {
          expect(current.map((p) => p.lot.id)).toEqual(show.currentLotId ? [show.currentLotId] : []);
        }
      }),
    );
  });
});

describe('waits as buyers read them (waitParts)', () => {
  const H = 3_600_000;
  it("reads days and hours from a day, hours and minutes from an hour, and 'mm:ss' under an hour", () => {
    expect(waitParts((39 * 60 + 44) * 60_000 + 12_000)).toEqual({ unit: 'days', days: 1, hours: 15 });
    expect(waitParts(H + 4 * 60_000 + 9_000)).toEqual({ unit: 'hours', hours: 1, minutes: 4 });
    expect(waitParts(H)).toEqual({ unit: 'hours', hours: 1, minutes: 0 });
    // Seconds round up: 3599.999 s left is still a whole hour.
    expect(waitParts(H - 1)).toEqual({ unit: 'hours', hours: 1, minutes: 0 });
    expect(waitParts(H - 1_000)).toEqual({ unit: 'minutes', minutes: 59, seconds: 59, clock: '59:59' });
    expect(waitParts(300)).toEqual({ unit: 'minutes', minutes: 0, seconds: 1, clock: '00:01' });
    expect(waitParts(-5)).toEqual({ unit: 'minutes', minutes: 0, seconds: 0, clock: '00:00' });
  });

  it('never shows a clock from an hour on, and the parts never exceed what is left (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 * 86_400_000 }), (ms) => {
        const wait = waitParts(ms);
        const seconds = Math.ceil(ms / 1000);
        if (wait.unit === 'minutes') {
          expect(seconds).toBeLessThan(3600);
          expect(wait.clock).toMatch(/^[0-5]\d:[0-5]\d$/);
          expect(wait.clock).not.toBe('00:00');
        } else if (wait.unit === 'hours') {
          expect(seconds).toBeGreaterThanOrEqual(3600);
          expect(wait.hours).toBeLessThan(24);
          expect(wait.hours * 3600 + wait.minutes * 60).toBeLessThanOrEqual(seconds);
        } else {
          expect(wait.days * 86_400 + wait.hours * 3600).toBeLessThanOrEqual(seconds);
          expect(seconds - (wait.days * 86_400 + wait.hours * 3600)).toBeLessThan(3600);
        }
      }),
    );
  });
});

describe('timer (SPEC §4 "Timer state")', () => {
  const now = 1_000_000;
  it('is idle without a current lot or auction, running before the end, finished at or after it or without one', () => {
    expect(timerState({ hasCurrentLot: false, auction: null, now })).toEqual({ kind: 'idle' });
    expect(timerState({ hasCurrentLot: true, auction: null, now })).toEqual({ kind: 'idle' });
    expect(timerState({ hasCurrentLot: true, auction: { endTime: now + 1500, status: 'live' }, now })).toEqual({ kind: 'running', remainingMs: 1500 });
    expect(timerState({ hasCurrentLot: true, auction: { endTime: now, status: 'live' }, now })).toEqual({ kind: 'finished' });
    expect(timerState({ hasCurrentLot: true, auction: { endTime: null, status: 'live' }, now })).toEqual({ kind: 'finished' });
    expect(timerState({ hasCurrentLot: true, auction: { endTime: now + 9000, status: 'ended' }, now })).toEqual({ kind: 'finished' });
  });

  it('reads mm:ss under an hour, rounding up', () => {
    expect(formatTimer(0)).toBe('00:00');
    expect(formatTimer(1)).toBe('00:01');
    expect(formatTimer(59_001)).toBe('01:00');
    expect(formatTimer(15_000)).toBe('00:15');
    expect(formatTimer(3_599_000)).toBe('59:59');
    expect(formatTimer(-5)).toBe('00:00');
  });

  it("reads hours and minutes from an hour, days and hours from a day: '4 d 20 h', never '116:22:25'", () => {
    const H = 3_600_000;
    expect(formatTimer(H)).toBe('1 h 00 min');
    // 3599.001 s left rounds up to the hour, as the clock under it would.
    expect(formatTimer(H - 999)).toBe('1 h 00 min');
    expect(formatTimer(5 * H + 4 * 60_000 + 30_000)).toBe('5 h 04 min');
    expect(formatTimer(5 * H + 12 * 60_000)).toBe('5 h 12 min');
    expect(formatTimer(24 * H - 1_000)).toBe('23 h 59 min');
    expect(formatTimer(24 * H)).toBe('1 d 0 h');
    expect(formatTimer((116 * 3600 + 22 * 60 + 25) * 1000)).toBe('4 d 20 h');
    expect(formatTimer(400 * 24 * H)).toBe('400 d 0 h');
  });

  it('never reads 00:00 while running, and never a clock of hours (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 * 86_400_000 }), (ms) => {
        const text = formatTimer(ms);
        expect(text).not.toBe('00:00');
        expect(text).toMatch(/^([0-5]\d:[0-5]\d|([1-9]|1\d|2[0-3]) h [0-5]\d min|[1-9]\d* d ([0-9]|1\d|2[0-3]) h)$/);
        // The text never claims more time than is left, and misses less than its smallest unit.
        const seconds = Math.ceil(ms / 1000);
        const days = /^(\d+) d (\d+) h$/.exec(text);
        const hours = /^(\d+) h (\d+) min$/.exec(text);
        const shown = days ? Number(days[1]) * 86_400 + Number(days[2]) * 3600 : hours ? Number(hours[1]) * 3600 + Number(hours[2]) * 60 : seconds;
        expect(shown).toBeLessThanOrEqual(seconds);
        expect(seconds - shown).toBeLessThan(days ? 3600 : hours ? 60 : 1);
      }),
    );
  });

  it('takes integer seconds from 5, in steps of 5, up to an hour', () => {
    expect(ZTimerInput.safeParse({ seconds: 5 }).success).toBe(true);
    expect(ZTimerInput.safeParse({ seconds: 3600 }).success).toBe(true);
    for (const [seconds, code] of [
      [0, 'timerTooShort'],
      [7, 'timerStep'],
      [3605, 'timerTooLong'],
      [7.5, 'timerInvalid'],
    ] as const) {
      expect(ZTimerInput.safeParse({ seconds }).error?.issues[0]?.message, String(seconds)).toBe(code);
    }
  });
});

describe('picker query (SPEC §5 "Auction picker search")', () => {
  it('shows the default list under 2 characters after trimming', () => {
    expect(parsePickerQuery('')).toEqual({ kind: 'default' });
    expect(parsePickerQuery(' a ')).toEqual({ kind: 'default' });
    expect(parsePickerQuery(undefined)).toEqual({ kind: 'default' });
  });

  it('searches up to 10 lower-cased words, and a well-formed id from 10 characters', () => {
    const q = parsePickerQuery('Reloj DE Pared');
    expect(q).toMatchObject({ kind: 'search', auctionId: null });
    expect(q.kind === 'search' && q.tokens).toEqual(['reloj', 'de', 'pared']);
    const many = parsePickerQuery('a b c d e f g h i j k l m');
    expect(many.kind === 'search' && many.tokens.length).toBeLessThanOrEqual(10);
    const id = '8F6F0B7E-6C4B-4F7F-9A51-0D9A6B1C2D3E';
    expect(parsePickerQuery(id)).toMatchObject({ kind: 'search', auctionId: id.toLowerCase() });
    expect(parsePickerQuery('abcdefghijk')).toMatchObject({ kind: 'search', auctionId: null });
  });

  it('never yields more than 10 tokens, all lower case (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (raw) => {
        const q = parsePickerQuery(raw);
        if (q.kind === 'default') {
          expect(raw.trim().length).toBeLessThan(2);
          return;
        }
        expect(q.tokens.length).toBeLessThanOrEqual(10);
        for (const t of q.tokens) expect(t).toBe(t.toLowerCase());
      }),
    );
  });
});

describe('lotRemovalBlock', () => {
  const now = 1_000_000;
  const state = (over: Partial<Parameters<typeof lotRemovalBlock>[0]> = {}) => ({
    status: 'live' as const,
    bidCount: 0,
    winnerName: null,
    winnerTag: null,
    endTime: null,
    ...over,
  });

  it('refuses a lot that sold', () => {
    expect(lotRemovalBlock(state({ status: 'ended', bidCount: 3, winnerName: 'Ju***' }), now)).toBe('sold');
    expect(lotRemovalBlock(state({ status: 'ended', bidCount: 0, winnerName: 'Ju***' }), now)).toBe('sold');
  });

  it('lets a lot never on the block leave: its auction sold or runs with bids outside the show', () => {
    expect(lotRemovalBlock(state({ status: 'ended', bidCount: 3, winnerName: 'Ju***' }), now, false)).toBeNull();
    expect(lotRemovalBlock(state({ status: 'active', bidCount: 2, endTime: now + 60_000 }), now, false)).toBeNull();
  });

  it('refuses a lot whose timer runs or whose bids stand', () => {
    expect(lotRemovalBlock(state({ endTime: now + 5000 }), now)).toBe('running');
    expect(lotRemovalBlock(state({ status: 'active', bidCount: 2, endTime: now + 86_400_000 }), now)).toBe('running');
    expect(lotRemovalBlock(state({ bidCount: 1, endTime: now - 1 }), now)).toBe('running');
  });

  it('lets an unsold lot go: queued, closed without bids, or pending', () => {
    expect(lotRemovalBlock(state(), now)).toBeNull();
    expect(lotRemovalBlock(state({ status: 'ended', endTime: now - 1000 }), now)).toBeNull();
    expect(lotRemovalBlock(state({ status: 'pending', endTime: now + 5000 }), now)).toBeNull();
    // An online auction without bids carries on online when it leaves the show.
    expect(lotRemovalBlock(state({ status: 'active', endTime: now + 86_400_000 }), now)).toBeNull();
    expect(lotRemovalBlock(state({ endTime: now }), now)).toBeNull();
  });
});

describe('what adding a picker’s auction means for it (pickerKind)', () => {
  const now = 1_000_000;
  it('a pending auction, or a live lot not timed yet, waits for the show’s clock', () => {
    expect(pickerKind({ status: 'pending', endTime: null, bidCount: 0 }, now)).toBe('waits');
    expect(pickerKind({ status: 'live', endTime: null, bidCount: 0 }, now)).toBe('waits');
    expect(pickerKind({ status: 'active', endTime: now - 1, bidCount: 2 }, now)).toBe('waits');
  });
  it('one running online on its own end runs, and the picker asks first when it has bids', () => {
    expect(pickerKind({ status: 'active', endTime: now + 60_000, bidCount: 0 }, now)).toBe('runs');
    expect(pickerKind({ status: 'live', endTime: now + 60_000, bidCount: 3 }, now)).toBe('runsWithBids');
  });
});
