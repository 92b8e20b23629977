import { describe, expect, it } from 'vitest';
import { buildActor } from '../../test/support/actors.js';
import { buildLot, buildSession, buildWonAuction } from '../../test/support/factories.js';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { fill, t } from '../support/catalogue.js';
import { prepareUser, signInPage } from '../support/session.js';
import { eventually } from '../support/wait.js';

/**
 * 'Cobrar el show' in the Live Hub: after a show, the seller sets a flat shipping, bills every
 * buyer in one click, makes the links, and each bill has its 'Enviar por WhatsApp' wa.me link.
 */
const ctx = setupAppAndBrowser();
const s = t.showBilling;
const COMPANY = 'cobro-show';

describe('billing the whole show', () => {
  it('flat shipping, Cobrar el show, Generar enlaces, and the WhatsApp link', async () => {
    const seller = await prepareUser(ctx.app, {
      email: 'cobra.show@ejemplo.mx',
      name: 'Cora Cobra',
      roles: ['seller'],
      companyId: COMPANY,
      companyName: 'Cobro Show',
    });
    const db = ctx.app.ctx.db;
    const session = await buildSession(db, { companyId: COMPANY, sellerId: seller.id, status: 'ended', title: 'Show de relojes' });
    const buyers = [
      await buildActor(ctx.app, { email: 'juana.reloj@ejemplo.mx', name: 'Juana Pérez', roles: ['buyer'], completeProfile: true, whatsapp: '+523311112222' }),
      await buildActor(ctx.app, { email: 'pedro.reloj@ejemplo.mx', name: 'Pedro López', roles: ['buyer'], completeProfile: true, whatsapp: '+523333334444' }),
    ];
    const wins = [
      { buyer: 0, name: 'Reloj Casio', price: 1200, winnerWhatsapp: '+523311112222', winnerName: 'Juana Pérez' },
      { buyer: 0, name: 'Reloj Citizen', price: 900, winnerWhatsapp: '+523311112222', winnerName: 'Juana Pérez' },
      { buyer: 1, name: 'Reloj Seiko', price: 700, winnerWhatsapp: '+523333334444', winnerName: 'Pedro López' },
    ];
    for (const w of wins) {
      const auction = await buildWonAuction(db, {
        price: w.price,
        name: w.name,
        companyId: COMPANY,
        sellerId: seller.id,
        winnerId: (buyers[w.buyer] as { id: string }).id,
        currentWinnerName: w.winnerName,
        winnerWhatsapp: w.winnerWhatsapp,
      });
      await buildLot(db, { sessionId: session.id, auctionId: auction.id });
    }

    const hub = await newPage(ctx.browser);
    await signInPage(hub, ctx.app, seller);
    await hub.goto(`${ctx.app.url}/admin/livehub?session=${session.id}`);
    await hub.getByRole('tab', { name: t.livehub.afterShow.billTab }).click();

    // No rules yet: billing waits for them, and the shipping reads 'Por definir', outside every total.
    await hub.getByText(s.shipping.notSet).waitFor();
    expect(await hub.getByRole('button', { name: s.bill, exact: true }).isDisabled()).toBe(true);
    const preview = hub.getByRole('list', { name: s.preview.title });
    await eventually(() => preview.getByRole('listitem').count()).toBe(2);
    const toCollect = hub.getByTestId('to-collect');
    expect(await toCollect.innerText()).toBe(fill(s.preview.toCollectNoShipping, { amount: '$2,800 MXN' }));
    const juanaRow = preview.getByRole('listitem').filter({ hasText: 'Juana Pérez' });
    await juanaRow.getByText(`${s.preview.shipping}: ${s.preview.noShipping}`).waitFor();
    await juanaRow.getByText(`${s.preview.total}: ${fill(s.preview.totalPlusShipping, { amount: '$2,100 MXN' })}`).waitFor();

    // Typed but not saved: still 'Por definir' (billing uses what is saved).
    await hub.getByLabel(s.shipping.flatFee).fill('150');
    await hub.getByLabel(s.shipping.perExtraItem).fill('50');
    expect(await juanaRow.getByText(`${s.preview.shipping}: ${s.preview.noShipping}`).count()).toBe(1);
    await hub.getByRole('button', { name: s.shipping.save }).click();
    await hub.getByText(s.shipping.saved).waitFor();
    // Saved: each total and 'Por cobrar' include the shipping (Juana $2,100 + $200, Pedro $700 + $150).
    await juanaRow.getByText(`${s.preview.total}: $2,300 MXN`).waitFor();
    await eventually(() => toCollect.innerText()).toBe(fill(s.preview.toCollect, { amount: '$3,150 MXN' }));
    // A change typed after saving is flagged until it is saved.
    await hub.getByLabel(s.shipping.flatFee).fill('180');
    await hub.getByTestId('shipping-unsaved').waitFor();
    await hub.getByLabel(s.shipping.flatFee).fill('150');
    await hub.getByTestId('shipping-unsaved').waitFor({ state: 'detached' });

    // Two quick clicks bill each buyer once.
    const billButton = hub.getByRole('button', { name: s.bill, exact: true });
    await billButton.click();
    await billButton.click({ force: true }).catch(() => undefined);
    await hub.getByText(fill(s.billed, { count: '2' })).waitFor();
    const bills = hub.getByRole('list', { name: s.bills.title });
    await eventually(() => bills.getByRole('listitem').count()).toBe(2);
    await bills.getByText(t.payments.status.draft).first().waitFor();
    // No link yet: 'Enviar por WhatsApp' is there but goes nowhere.
    expect(await bills.getByText(s.bills.whatsapp).count()).toBe(2);
    expect(await bills.getByRole('link', { name: s.bills.whatsapp }).count()).toBe(0);

    await hub.getByRole('button', { name: s.bills.makeLinks }).click();
    await hub.getByText(fill(s.bills.linksDone, { ok: '2', total: '2' })).waitFor();
    await eventually(() => bills.getByText(t.payments.status.pending).count()).toBe(2);

    const juana = bills.getByRole('listitem').filter({ hasText: 'Juana Pérez' });
    const href = await juana.getByRole('link', { name: s.bills.whatsapp }).getAttribute('href');
    expect(href?.startsWith('https://wa.me/523311112222?text=')).toBe(true);
    const text = decodeURIComponent(href?.split('text=')[1] ?? '');
    expect(text).toContain('Reloj Casio');
    expect(text).toContain('Reloj Citizen');
    expect(text).toContain('/pay/');
    expect(text).toContain(`${ctx.app.url}/compras`);
    await juana.getByRole('button', { name: s.bills.copy }).waitFor();
  });
});
