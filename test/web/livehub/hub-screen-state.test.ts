import { describe, expect, it } from 'vitest';
import { COVER_HEIGHT, COVER_MAX_BYTES, COVER_WIDTH } from '../../../src/domain/live';
import { acceptDetail, pickerKeyPart } from '../../../src/web/api/live-hub-cache';
import { coverDrawRect, coverFileProblem, lotImageChoices } from '../../../src/web/livehub/cover';
import { absoluteLink, COMPACT_QUERY, isCompactWidth, searchWithSession, sessionIdFromSearch } from '../../../src/web/livehub/hub-layout';
import { currentLot, hubTimerBadge } from '../../../src/web/livehub/timer-view';
import { detail, lot, SESSION_ID } from '../../support/live-hub-fixtures';

describe("the header's 'Más' menu", () => {
  it('collapses below 780 px only', () => {
    expect(isCompactWidth(390)).toBe(true);
    expect(isCompactWidth(779)).toBe(true);
    expect(isCompactWidth(780)).toBe(false);
    expect(isCompactWidth(1280)).toBe(false);
    expect(COMPACT_QUERY).toBe('(max-width: 779.98px)');
  });
});

describe('the loaded session in the URL', () => {
  it('reads a well-formed id only', () => {
    expect(sessionIdFromSearch(`?session=${SESSION_ID.toUpperCase()}`)).toBe(SESSION_ID);
    expect(sessionIdFromSearch('?session=abc')).toBeNull();
    expect(sessionIdFromSearch('')).toBeNull();
  });

  it('sets and removes it, keeping other parameters', () => {
    expect(searchWithSession('?x=1', SESSION_ID)).toBe(`?x=1&session=${SESSION_ID}`);
    expect(searchWithSession(`?session=${SESSION_ID}&x=1`, null)).toBe('?x=1');
    expect(searchWithSession(`?session=${SESSION_ID}`, null)).toBe('');
  });

  it('makes the public link absolute', () => {
    expect(absoluteLink('https://martillo.mx/', '/live/relojes/1')).toBe('https://martillo.mx/live/relojes/1');
  });
});

describe('the timer badge on the server clock', () => {
  const running = (endTime: number | null, status: 'live' | 'ended' = 'live') => {
    const lots = [lot(1, { state: { endTime, status } })];
    return { ...detail({ lots, session: { currentLotId: lots[0]?.id ?? null }, serverNow: 1_000_000 }), receivedAt: 1_000_000 };
  };

  it("reads 'Inactivo' without a current lot", () => {
    const data = { ...detail({ lots: [lot(1)] }), receivedAt: 0 };
    expect(currentLot(data)).toBeNull();
    expect(hubTimerBadge(data, 0)).toEqual({ key: 'idle' });
  });

  it("counts down as 'mm:ss' and finishes at the end time", () => {
    const data = running(1_000_000 + 75_000);
    expect(hubTimerBadge(data, 1_000_000)).toMatchObject({ key: 'running', time: '01:15' });
    expect(hubTimerBadge(data, 1_000_000 + 74_001)).toMatchObject({ key: 'running', time: '00:01' });
    expect(hubTimerBadge(data, 1_000_000 + 75_000)).toEqual({ key: 'finished' });
    expect(hubTimerBadge(running(2_000_000, 'ended'), 1_000_000)).toEqual({ key: 'finished' });
  });

  it("corrects the device clock by the server's offset", () => {
    // The server was 10 s ahead when the detail arrived: at device time 1,000,000 it is already 1,010,000.
    const data = { ...running(1_030_000), serverNow: 1_010_000, receivedAt: 1_000_000 };
    expect(hubTimerBadge(data, 1_000_000)).toMatchObject({ key: 'running', time: '00:20' });
  });
});

describe('the cover', () => {
  it('takes image files up to 2 MB only', () => {
    expect(coverFileProblem({ type: 'image/png', size: COVER_MAX_BYTES, name: 'a.png' })).toBeNull();
    expect(coverFileProblem({ type: 'image/png', size: COVER_MAX_BYTES + 1, name: 'a.png' })).toBe('tooLarge');
    expect(coverFileProblem({ type: 'application/pdf', size: 10, name: 'a.pdf' })).toBe('notImage');
    expect(coverFileProblem({ type: '', size: 10, name: 'foto.HEIC' })).toBeNull();
  });

  it('draws the crop onto the whole 720x1280 canvas, kept inside the image', () => {
    expect(coverDrawRect({ x: 100.4, y: 20.6, width: 450, height: 800 }, { width: 1000, height: 1000 })).toEqual({
      sx: 100,
      sy: 21,
      sw: 450,
      sh: 800,
      dw: COVER_WIDTH,
      dh: COVER_HEIGHT,
    });
    // An area reported past the edge is cut to the image.
    expect(coverDrawRect({ x: -5, y: 900, width: 600, height: 300 }, { width: 500, height: 1000 })).toEqual({
      sx: 0,
      sy: 900,
      sw: 500,
      sh: 100,
      dw: 720,
      dh: 1280,
    });
  });

  it("offers every lot photo once, in lot order ('Elegir imagen existente')", () => {
    const lots = [lot(2, { images: ['/b.jpg', '/a.jpg'] }), lot(1, { images: ['/a.jpg'] }), lot(3)];
    expect(lotImageChoices(lots).map((c) => c.url)).toEqual(['/a.jpg', '/b.jpg']);
    expect(lotImageChoices([])).toEqual([]);
  });
});

describe('the detail cache after a mutation', () => {
  it('stores the answer with the time it arrived', () => {
    const answer = detail({ session: { version: 3 } });
    expect(acceptDetail(undefined, answer, 42)).toEqual({ ...answer, receivedAt: 42 });
    expect(acceptDetail({ ...detail({ session: { version: 2 } }), receivedAt: 1 }, answer, 42).session.version).toBe(3);
  });

  it('keeps a newer version a room event already brought', () => {
    const cached = { ...detail({ session: { version: 5, title: 'Nuevo' } }), receivedAt: 1 };
    const kept = acceptDetail(cached, detail({ session: { version: 4, title: 'Viejo' } }), 42);
    expect(kept.session).toMatchObject({ version: 5, title: 'Nuevo' });
    expect(kept.receivedAt).toBe(1);
  });

  it('shares one picker answer for what the server searches alike', () => {
    expect(pickerKeyPart(' R ')).toBe('');
    expect(pickerKeyPart('  Reloj ')).toBe('reloj');
  });
});
