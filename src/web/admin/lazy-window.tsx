import { Group, Loader, Modal, type ModalProps, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type ComponentType, Suspense, useState } from 'react';
import { useRetryableLazy } from '../components/lazy-part';
import { LoadErrorBoundary, LoadFailed } from '../components/load-error-boundary';
import { useTranslation } from '../i18n';

/** What every panel window takes: whether it shows, and how it closes. */
interface WindowProps {
  opened: boolean;
  onClose: () => void;
}

interface LazyWindowProps<P extends WindowProps> {
  /** The window's code, fetched the first time it opens, so it is not in the panel's first load. */
  load: () => Promise<ComponentType<P>>;
  props: P;
  /** The frame shown while the code arrives, or when it did not: the window's own title and size, so nothing jumps. */
  title: string;
  size: ModalProps['size'];
}

/** True from the first time `opened` is, so a window stays mounted to animate out and reopen at once. */
function useOpenedOnce(opened: boolean): boolean {
  const [seen, setSeen] = useState(opened);
  if (opened && !seen) setSeen(true);
  return seen || opened;
}

/**
 * A panel window loaded on demand. Until its code arrives, a Modal of the same title and size shows
 * a Loader; if the code does not arrive (offline, or a deploy replaced the file), the same Modal
 * says so with 'Reintentar', which fetches it again (React keeps a lazy component's failure for
 * good, so the lazy component is made anew), and the panel behind stays as it was.
 */
export function LazyWindow<P extends WindowProps>({ load, props, title, size }: LazyWindowProps<P>) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery('(max-width: 48em)') ?? false;
  const { Loaded, attempt, retry } = useRetryableLazy(load);
  const mounted = useOpenedOnce(props.opened);
  if (!mounted) return null;

  const frame = (body: React.ReactNode) => (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={title}
      size={size}
      fullScreen={isMobile}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {body}
    </Modal>
  );
  const failed = (reset: () => void) =>
    frame(
      <LoadFailed
        message={t('admin.windowLoadFailed')}
        onRetry={() => {
          retry();
          reset();
        }}
      />,
    );
  return (
    <LoadErrorBoundary key={attempt} fallback={failed}>
      <Suspense fallback={frame(<WindowLoading />)}>
        <Loaded {...props} />
      </Suspense>
    </LoadErrorBoundary>
  );
}

/** The body of a window whose code is on its way: as tall as a short window, announced politely. */
export function WindowLoading() {
  const { t } = useTranslation();
  return (
    <Group gap="sm" mih={200} justify="center" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden="true" />
      <Text>{t('common.loading')}</Text>
    </Group>
  );
}
