import { describe, expect, it } from 'vitest';
import type { LiveSessionListItem } from '../../../src/domain/live';
import { groupShows, mexicoDayKey, showDateLabel } from '../../../src/web/livehub/phone-shows/show-groups';
import { session } from '../../support/live-hub-fixtures';

let n = 0;
function show(over: Partial<LiveSessionListItem>): LiveSessionListItem {
  n += 1;
  return { ...session({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` }), lotCount: 0, canEdit: true, ...over };
}

const ids = (list: LiveSessionListItem[]) => list.map((s) => s.title);

/** 21 Nov 2026, 14:00 in Mexico City (UTC-6, no daylight saving since 2022). */
const NOW = Date.UTC(2026, 10, 21, 20, 0);

describe("the phone's list of shows", () => {
  it('tells today from tomorrow by Mexico City dates, not the UTC date', () => {
    expect(mexicoDayKey(NOW)).toBe('2026-11-21');
    // 23:30 in Mexico City is already the 22nd in UTC: still today's show.
    const late = show({ title: 'Hoy 23:30', scheduledAt: Date.UTC(2026, 10, 22, 5, 30) });
    // 00:30 the next day in Mexico City.
    const tomorrow = show({ title: 'Mañana 00:30', scheduledAt: Date.UTC(2026, 10, 22, 6, 30) });
    // 00:30 this morning in Mexico City, the 21st's first minutes.
    const morning = show({ title: 'Hoy 00:30', scheduledAt: Date.UTC(2026, 10, 21, 6, 30), status: 'ended' });
    const groups = groupShows([tomorrow, late, morning], NOW);
    expect(ids(groups.today)).toEqual(['Hoy 00:30', 'Hoy 23:30']);
    expect(ids(groups.upcoming)).toEqual(['Mañana 00:30']);
    expect(groups.past).toEqual([]);
  });

  it('puts a show on the air first under today whatever its date, and an ended one under past whatever its date', () => {
    const onAir = show({ title: 'En vivo desde ayer', scheduledAt: NOW - 26 * 3_600_000, status: 'live' });
    const paused = show({ title: 'En pausa', scheduledAt: NOW - 40 * 3_600_000, status: 'paused' });
    const tonight = show({ title: 'Esta noche', scheduledAt: NOW + 5 * 3_600_000 });
    const endedEarly = show({ title: 'Terminado antes', scheduledAt: NOW + 3 * 86_400_000, status: 'ended' });
    const groups = groupShows([tonight, endedEarly, onAir, paused], NOW);
    expect(ids(groups.today)).toEqual(['En pausa', 'En vivo desde ayer', 'Esta noche']);
    expect(ids(groups.upcoming)).toEqual([]);
    expect(ids(groups.past)).toEqual(['Terminado antes']);
  });

  it('lists upcoming shows soonest first and past ones latest first, a scheduled show of a past day among the past', () => {
    const day = 86_400_000;
    const list = [
      show({ title: 'En una semana', scheduledAt: NOW + 7 * day }),
      show({ title: 'Pasado mañana', scheduledAt: NOW + 2 * day }),
      show({ title: 'Hace un mes', scheduledAt: NOW - 30 * day, status: 'ended' }),
      show({ title: 'Ayer, sin correr', scheduledAt: NOW - day }),
      show({ title: 'Hace una semana', scheduledAt: NOW - 7 * day, status: 'ended' }),
    ];
    const groups = groupShows(list, NOW);
    expect(ids(groups.upcoming)).toEqual(['Pasado mañana', 'En una semana']);
    expect(ids(groups.past)).toEqual(['Ayer, sin correr', 'Hace una semana', 'Hace un mes']);
  });

  it("reads a card's date with its weekday and time, and the year only when it is not this one", () => {
    expect(showDateLabel(Date.UTC(2026, 10, 22, 0, 5), NOW)).toBe('sáb. 21 de nov, 18:05');
    expect(showDateLabel(Date.UTC(2025, 11, 31, 18, 0), NOW)).toBe('mié. 31 de dic de 2025, 12:00');
  });
});
