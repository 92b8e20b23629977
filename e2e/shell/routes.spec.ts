import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupAppAndBrowser } from '../support/app.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';
import { prepareUser, signInPage } from '../support/session.js';

const ctx = setupAppAndBrowser();

/** What the page's Permissions-Policy lets it use (Chromium's document.featurePolicy). */
const allowed = (page: Page) =>
  page.evaluate(() => {
    const policy = (document as unknown as { featurePolicy: { allowsFeature(feature: string): boolean } }).featurePolicy;
    return { camera: policy.allowsFeature('camera'), microphone: policy.allowsFeature('microphone'), geolocation: policy.allowsFeature('geolocation') };
  });

describe('screens chosen by path', () => {
  it('opens the public auction page signed out, on a phone', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    await page.goto(`${ctx.app.url}/auctions/${randomUUID()}`);
    await page.getByText(t.publicAuction.notFound).waitFor();
    expect(await page.getByRole('button', { name: t.auth.signInWithGoogle }).count()).toBe(0);
    await page.context().close();
  });

  it('opens the public live page for /live/{slug}/{sessionId}, /live/{sessionId} and /live, signed out', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    for (const path of [`/live/tienda-lucia/${randomUUID()}`, `/live/${randomUUID()}`, '/live/no-es-un-id']) {
      await page.goto(`${ctx.app.url}${path}`);
      await page.getByRole('heading', { name: t.live.notFound }).waitFor();
    }
    await page.goto(`${ctx.app.url}/live`);
    await page.getByRole('heading', { name: t.live.title }).waitFor();
    await page.getByText(t.live.noSession).waitFor();
    expect(await page.getByRole('button', { name: t.auth.signInWithGoogle }).count()).toBe(0);
    await page.context().close();
  });

  it('gives the Live Hub its own background, for any path ending in /livehub', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(`${ctx.app.url}/admin`);
    const adminBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundImage + getComputedStyle(document.body).backgroundColor);
    for (const path of ['/admin/livehub', '/otra/ruta/livehub/']) {
      await page.goto(`${ctx.app.url}${path}`);
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

  it('opens the Live Hub from the panel as a page of its own, the only one whose policy allows the camera; back to the panel within it, with Back and Forward', async () => {
    const seller = await prepareUser(ctx.app, { email: 'vendedora.rutas@ejemplo.mx', name: 'Rita Rutas', roles: ['seller'], companyId: 'tienda-rutas' });
    const page = await newPage(ctx.browser);
    await signInPage(page, ctx.app, seller);
    // '/' is the buyers' home for everyone; a seller reaches the panel from its header.
    await page.goto(`${ctx.app.url}/`);
    await page.getByRole('heading', { name: t.home.title, level: 1 }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: t.header.panel }).click();
    await page.waitForURL(`${ctx.app.url}/admin`);
    const toHub = page.getByRole('button', { name: t.admin.liveHub });
    const hubTitle = page.getByRole('heading', { name: t.livehub.title });
    await toHub.waitFor();
    expect(await allowed(page)).toEqual({ camera: false, microphone: false, geolocation: false });
    await page.evaluate(() => {
      (window as unknown as { panelPage: boolean }).panelPage = true;
    });
    // A document keeps the Permissions-Policy it was loaded with: the Hub is loaded, not routed to.
    await toHub.click();
    await hubTitle.waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/livehub');
    expect(await page.evaluate(() => (window as unknown as { panelPage?: boolean }).panelPage)).toBeUndefined();
    expect(await allowed(page)).toEqual({ camera: true, microphone: true, geolocation: false });
    await page.evaluate(() => {
      (window as unknown as { hubPage: boolean }).hubPage = true;
    });
    // Back to the panel: the same document, following the panel's router without a reload.
    await page.getByRole('button', { name: t.livehub.backToAdmin }).click();
    await toHub.waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect(await page.evaluate(() => (window as unknown as { hubPage?: boolean }).hubPage)).toBe(true);
    await page.goBack();
    await hubTitle.waitFor();
    await page.goBack();
    await toHub.waitFor();
    await page.goForward();
    await hubTitle.waitFor();
    expect(await allowed(page)).toEqual({ camera: true, microphone: true, geolocation: false });
    await page.context().close();
  });

  it('lets the buyer pages use neither the camera nor the microphone', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    for (const path of ['/live', `/live/${randomUUID()}`, `/auctions/${randomUUID()}`, '/compras']) {
      const res = await page.goto(`${ctx.app.url}${path}`);
      expect(res?.headers()['permissions-policy'], path).toContain('camera=()');
      expect(await allowed(page), path).toEqual({ camera: false, microphone: false, geolocation: false });
    }
    await page.context().close();
  });

  it('runs every page under the Content-Security-Policy and the Permissions-Policy without a violation or a warning', async () => {
    const page = await newPage(ctx.browser);
    const violations: string[] = [];
    page.on('console', (m) => {
      // Chromium warns of a Permissions-Policy feature it does not know, on every page.
      if (/Content Security Policy|Permissions-Policy/i.test(m.text())) violations.push(m.text());
    });
    for (const path of ['/admin', '/auth/dev', '/privacy-policy.html', '/admin/livehub', '/live']) {
      const res = await page.goto(`${ctx.app.url}${path}`);
      expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
      await page.waitForLoadState('networkidle');
    }
    // The app really rendered under the policy (styles and scripts loaded).
    await page.goto(`${ctx.app.url}/admin`);
    await page.getByRole('button', { name: t.auth.signInWithGoogle }).waitFor();
    expect(violations).toEqual([]);
    await page.context().close();
  });

  it('serves a real Spanish privacy notice', async () => {
    const page = await newPage(ctx.browser);
    const res = await page.goto(`${ctx.app.url}/privacy-policy.html`);
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
    const res = await fetch(`${ctx.app.url}/assets/no-existe.js`);
    expect(res.status).toBe(404);
    const spa = await fetch(`${ctx.app.url}/admin/cualquier/ruta`);
    expect(spa.status).toBe(200);
    expect(await spa.text()).toContain('<div id="root">');
  });
});
