import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionList } from '../../src/domain/live.js';
import { mexicoDateOf, mexicoTimeOf } from '../../src/web/livehub/schedule.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { hubApi } from './hub-show.js';

/**
 * Typing a time in 'Crear sesión' gives exactly that time: '2' stays '2' (no jump to 20 and to
 * the minutes), '21:30' is saved as 21:30 in Mexico City, past days are not offered, and a time
 * that is not one says so in Spanish. 'Editar Sesión' shares the field.
 */
const ctx = setupAppAndBrowser();
const h = t.livehub;
const SELLER = { email: 'tere.hora@ejemplo.mx', name: 'Tere Hora' };
let seller: E2eUser;

beforeAll(async () => {
  seller = await prepareUser(ctx.app, { ...SELLER, roles: ['seller'], companyId: 'hora-exacta', companyName: 'Hora Exacta' });
});

async function hubPage(): Promise<Page> {
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, seller);
  await page.goto(`${ctx.app.url}/admin/livehub`);
  return page;
}

describe("the session's date and time", () => {
  it('saves exactly the time typed, on a day from today on', async () => {
    const hub = await hubPage();
    await hub.getByRole('button', { name: h.header.createSession }).click();
    const create = hub.getByRole('dialog', { name: h.create.title });
    await create.getByRole('textbox', { name: h.create.name }).fill('Remate nocturno');
    const day = create.getByLabel(h.create.day);
    const today = mexicoDateOf(Date.now());
    expect(await day.getAttribute('min')).toBe(today);
    const tomorrow = mexicoDateOf(Date.now() + 24 * 3_600_000);
    await day.fill(tomorrow);

    const time = create.getByRole('textbox', { name: h.create.time });
    await time.click();
    await hub.keyboard.type('2');
    // Nothing completes or moves on by itself.
    expect(await time.inputValue()).toBe('2');
    await expect.poll(() => hub.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('2');
    await hub.keyboard.type('1:30');
    expect(await time.inputValue()).toBe('21:30');
    await create.getByTestId('schedule-chosen').waitFor();
    await create.getByRole('button', { name: h.create.submit, exact: true }).click();
    await create.waitFor({ state: 'detached' });
    await hub.getByRole('heading', { name: 'Remate nocturno' }).waitFor();

    const saved = (await hubApi(hub, ctx.app).get<LiveSessionList>('/api/live-sessions')).sessions.find((s) => s.title === 'Remate nocturno');
    expect(saved && mexicoDateOf(saved.scheduledAt)).toBe(tomorrow);
    expect(saved && mexicoTimeOf(saved.scheduledAt)).toBe('21:30');

    // 'Editar Sesión' shows the same time and saves a new one typed the same way.
    await hub.getByRole('button', { name: h.header.manageSessions }).click();
    await hub.getByRole('dialog', { name: h.manage.title }).getByRole('button', { name: 'Editar Remate nocturno' }).click();
    const edit = hub.getByRole('dialog', { name: h.edit.title });
    const editTime = edit.getByRole('textbox', { name: h.create.time });
    expect(await editTime.inputValue()).toBe('21:30');
    await editTime.fill('');
    await editTime.pressSequentially('2215');
    await edit.getByRole('button', { name: h.edit.save }).click();
    await hub.getByText(h.edit.saved).first().waitFor();
    const edited = (await hubApi(hub, ctx.app).get<LiveSessionList>('/api/live-sessions')).sessions.find((s) => s.title === 'Remate nocturno');
    expect(edited && mexicoTimeOf(edited.scheduledAt)).toBe('22:15');
  });

  it('says in Spanish what is wrong with a past day or a time that is not one', async () => {
    const hub = await hubPage();
    await hub.getByRole('button', { name: h.header.createSession }).click();
    const create = hub.getByRole('dialog', { name: h.create.title });
    await create.getByRole('textbox', { name: h.create.name }).fill('Remate pasado');
    const time = create.getByRole('textbox', { name: h.create.time });
    await time.fill('25:10');
    await create.getByLabel(h.create.day).fill(mexicoDateOf(Date.now() - 3 * 24 * 3_600_000));
    await time.click();
    await create.getByText(h.errors.scheduleDatePast).waitFor();
    await create.getByLabel(h.create.day).fill(mexicoDateOf(Date.now() + 24 * 3_600_000));
    await create.getByRole('textbox', { name: h.create.name }).click();
    await create.getByText(h.errors.scheduleTimeInvalid).waitFor();
    expect(await create.getByRole('button', { name: h.create.submit, exact: true }).isDisabled()).toBe(true);
  });
});
