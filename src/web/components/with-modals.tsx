import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * A lazy screen wrapped in @mantine/modals' provider, both loaded together. Only the admin panel and
 * the Live Hub open confirm dialogs through `modals.*`; a provider in the shell would put Mantine's
 * Modal (with ScrollArea and floating-ui, about 22 KB gzip) in every public page's first load (issue 14).
 */
export function lazyWithModals<P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => {
    const [Screen, { ModalsProvider }] = await Promise.all([load(), import('@mantine/modals')]);
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
