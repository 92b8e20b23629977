import { Loader, type LoaderProps } from '@mantine/core';

/**
 * A small spinner that says what is happening ('Cargando...', 'Actualizando…') to a screen
 * reader. Mantine's Loader is a <span>, where a label alone is not allowed (axe:
 * aria-prohibited-attr); as a status it may carry one, and a change is announced politely.
 */
export function Spinner({ label, ...props }: Omit<LoaderProps, 'role' | 'aria-label'> & { label: string }) {
  return <Loader role="status" aria-label={label} {...props} />;
}
