import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, startE2eApp } from '../support/app.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';

let app: E2eApp;
let browser: Browser;
beforeAll(async () => {
  app = await startE2eApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('screens chosen by path', () => {
  it('opens the public auction page signed out, on a phone', async () => {
    const page = await newPage(browser, { mobile: true });
    await page.goto(`${app.url}/auctions/${randomUUID()}`);
    await page.getByText(t.publicAuction.notFound).waitFor();
    expect(await page.getByRole('button', { name: t.auth.signInWithGoogle }).count()).toBe(0);
    await page.context().close();
  });

  it('opens the public live page for /live/{slug}/{sessionId} and /live', async () => {
    const page = await newPage(browser, { mobile: true });
    for (const path of [`/live/tienda-lucia/${randomUUID()}`, '/live']) {
      await page.goto(`${app.url}${path}`);
      await page.getByText(t.live.noSession).waitFor();
    }
    await page.context().close();
  });

  it('gives the Live Hub its own background, for any path ending in /livehub', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/admin`);
    const adminBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundImage + getComputedStyle(document.body).backgroundColor);
    for (const path of ['/admin/livehub', '/otra/ruta/livehub/']) {
      await page.goto(`${app.url}${path}`);
      await page.getByRole('heading', { name: t.auth.loginHeading }).waitFor();
      const hubBackground = await page.evaluate(() => {
        const styled = [document.body, ...document.body.querySelectorAll('div')].find((el) => getComputedStyle(el).backgroundImage !== 'none');
        return styled
          ? getComputedStyle(styled).backgroundImage + getComputedStyle(document.body).backgroundColor
          : getComputedStyle(document.body).backgroundColor;
      });
      expect(hubBackground).not.toBe(adminBackground);
    }
    await page.context().close();
  });

  it('serves a real Spanish privacy notice', async () => {
    const page = await newPage(browser);
    const res = await page.goto(`${app.url}/privacy-policy.html`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('html').getAttribute('lang')).toMatch(/^es/);
    const text = await page.locator('body').innerText();
    for (const must of [
      'Aviso de privacidad',
      'ARCO',
      'Mercado Pago',
      'WhatsApp',
      'Ley Federal de Protección de Datos Personales en Posesión de los Particulares',
    ]) {
      expect(text, must).toContain(must);
    }
    await page.context().close();
  });

  it('answers a missing asset with 404, not the app', async () => {
    const res = await fetch(`${app.url}/assets/no-existe.js`);
    expect(res.status).toBe(404);
    const spa = await fetch(`${app.url}/admin/cualquier/ruta`);
    expect(spa.status).toBe(200);
    expect(await spa.text()).toContain('<div id="root">');
  });
});
