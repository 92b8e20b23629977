import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { loadPanelStrings } from '../i18n';

/**
 * A lazy screen wrapped in @mantine/modals' provider, loaded together with every Mantine style
 * (panel-styles.ts) and the catalogue's panel strings (i18n/parts.ts). Only the admin panel and the Live Hub open confirm dialogs through `modals.*`;
 * a provider in the shell would put Mantine's Modal (with ScrollArea and floating-ui, about 22 KB
 * gzip) in every public page's first load (issue 14).
 */
export function lazyWithModals<P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => {
    // The styles first, so their stylesheets come before the screen's own in the page.
    const [, Screen, { ModalsProvider }] = await Promise.all([import('./panel-styles'), load(), import('@mantine/modals'), loadPanelStrings()]);
    function WithModals(props: P) {
      return (
        <ModalsProvider>
          <Screen {...props} />
        </ModalsProvider>
      );
    }
    return { default: WithModals };
  });
}
