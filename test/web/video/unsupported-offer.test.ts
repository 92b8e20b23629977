import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { addPageStrings } from '../../../src/web/i18n';
import en from '../../../src/web/i18n/en.json';
import es from '../../../src/web/i18n/es-MX.json';
import liveStrings from '../../../src/web/i18n/es-MX.json?section=live';
import { LiveVideo } from '../../../src/web/public/live/live-video';
import { theme } from '../../../src/web/theme';
import { failureOf } from '../../../src/web/video/embedded';

/**
 * The embedded SFU refuses an offer it cannot serve with 'unsupported_offer': the seller and the
 * buyer are told their browser cannot use this video, in Spanish, instead of "check your
 * connection" or a "retrying" that never comes.
 */

// The live page's own strings, as the page adds them (i18n/parts.ts).
addPageStrings(liveStrings);

describe('an offer the video server cannot use', () => {
  it('tells the seller, in the Live Hub, to use another browser', () => {
    const err = failureOf('unsupported_offer');
    expect(err.reason).toBe('unsupported');
    // The Live Hub shows livehub.broadcast.reason.<reason> under "No se pudo iniciar la transmisión".
    expect(es.livehub.broadcast.reason.unsupported).toMatch(/navegador/);
    expect(en.livehub.broadcast.reason.unsupported).toMatch(/browser/);
    expect(failureOf('invalid').reason).toBe('failed');
  });

  it('tells the buyer, over the video, that this browser cannot play it, without a spinner', () => {
    const html = renderToStaticMarkup(
      createElement(
        MantineProvider,
        { theme },
        createElement(LiveVideo, {
          title: 'Relojes del sábado',
          coverImageUrl: null,
          pageState: 'live',
          viewerCount: 3,
          feed: { stream: null, status: 'unsupported' },
          muted: true,
          onMutedChange() {},
          stopped: false,
        }),
      ),
    );
    expect(html).toContain(es.live.video.unsupported);
    expect(html).toContain('data-video-status="unsupported"');
    expect(html).not.toContain('mantine-Loader');
    expect(en.live.video.unsupported).toMatch(/browser/);
  });
});
