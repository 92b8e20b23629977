import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ShareButton, whatsappShareLink } from '../../../src/web/components/share-button';
import es from '../../../src/web/i18n/es-MX.json';
import { theme } from '../../../src/web/theme';

/** Compartir's fallback where the phone has no share sheet: a wa.me link with the message and the address. */
describe('the WhatsApp fallback link', () => {
  it('opens WhatsApp with the message and the address, each character encoded', () => {
    const url = 'https://martillo.mx/live/relojes/6f1c0c54-9a57-4a43-9d4c-0f1f4f9d5c11?lote=1&x=2';
    const link = whatsappShareLink('Relojes & más: ¡hoy #1!', url);
    expect(link.startsWith('https://wa.me/?text=')).toBe(true);
    const text = new URL(link).searchParams.get('text');
    expect(text).toBe(`Relojes & más: ¡hoy #1!\n${url}`);
    // Nothing of the message leaks into the link's own query: one parameter only.
    expect([...new URL(link).searchParams.keys()]).toEqual(['text']);
  });
});

describe('the button', () => {
  it('says Compartir, named for what it shares', () => {
    const html = renderToStaticMarkup(createElement(MantineProvider, { theme }, createElement(ShareButton, { title: 'Seiko 5', url: '/auctions/1' })));
    expect(html).toContain(es.share.button);
    expect(html).toContain(`aria-label="${es.share.label.replace('{{title}}', 'Seiko 5')}"`);
  });
});
