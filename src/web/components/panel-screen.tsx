import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { loadPanelStrings } from '../i18n';

/**
 * A lazy screen of the admin panel or the Live Hub, loaded with what only they use, so that none of
 * it is in a public page's first load:
 * - React Router (panel-router.tsx: their windows and filters live in the URL; the shell chooses
 *   screens without it);
 * - @mantine/modals' provider (their confirm dialogs): Mantine's Modal, with ScrollArea and
 *   floating-ui, is about 22 KB gzip;
 * - every Mantine stylesheet (panel-styles.ts) and the catalogue's panel strings (i18n/parts.ts).
 */
export function lazyPanelScreen<P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => {
    // The styles first, so their stylesheets come before the screen's own in the page.
    const [, Screen, { ModalsProvider }, { PanelRouter }] = await Promise.all([
      import('./panel-styles'),
      load(),
      import('@mantine/modals'),
      import('./panel-router'),
      loadPanelStrings(),
    ]);
    function PanelScreen(props: P) {
      return (
        <PanelRouter>
          <ModalsProvider>
            <Screen {...props} />
          </ModalsProvider>
        </PanelRouter>
      );
    }
    return { default: PanelScreen };
  });
}
