import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { buildAuction } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { type E2eUser, prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

const ctx = setupAppAndBrowser();
const names = (main: Locator) => main.getByTestId('auction-name').allInnerTexts();

async function newAdmin(label: string): Promise<{ companyId: string; admin: E2eUser }> {
  const companyId = `e2e-${label}-${randomUUID().slice(0, 8)}`;
  const admin = await prepareUser(ctx.app, {
    email: `ana-${companyId}@ejemplo.mx`,
    name: 'Ana Admin',
    roles: ['admin', 'seller'],
    companyId,
    companyName: `Tienda ${label}`,
  });
  return { companyId, admin };
}

/** Resolves once the page's next Socket.IO connection is accepted (the server's CONNECT packet). */
function nextSocketConnected(page: Page): Promise<unknown> {
  return page.waitForEvent('websocket').then((ws) => ws.waitForEvent('framereceived', { predicate: (f) => String(f.payload).startsWith('40') }));
}

describe('panel realtime', () => {
  it('refetches the auction list after the live connection drops', async () => {
    const { companyId, admin } = await newAdmin('caida');
    await buildAuction(ctx.app.ctx.db, { companyId, name: 'Florero de Talavera' });
    const page = await newPage(ctx.browser);
    await signInPage(page, ctx.app, admin);
    const ready = nextSocketConnected(page);
    await page.goto(`${ctx.app.url}/admin`);
    const main = page.getByRole('main');
    await eventually(() => names(main)).toEqual(['Florero de Talavera']);
    await ready;

    // A change whose event the page cannot hear (written straight to the database), then the
    // connection drops: only the resync after reconnecting brings it in.
    await buildAuction(ctx.app.ctx.db, { companyId, name: 'Alebrije de Oaxaca' });
    const back = nextSocketConnected(page);
    for (const socket of ctx.app.ctx.realtime.io.of('/').sockets.values()) socket.conn.close();
    await back;
    await eventually(async () => (await names(main)).sort()).toEqual(['Alebrije de Oaxaca', 'Florero de Talavera']);
    await page.context().close();
  });
});
