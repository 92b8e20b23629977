import { Box } from '@mantine/core';
import { PhotoIcon } from '../../components/icons';
import { formatPeso } from '../../lib/peso-text';

/** Whole pesos as the app writes them: $1,800. */
export const pesos = (amount: number) => formatPeso(String(amount));

/** A photo of a fixed size (no layout shift), or a grey box with a picture icon when there is none. */
export function Thumb({ src, size, eager = false }: { src: string | null; size: number; eager?: boolean }) {
  if (!src)
    return (
      <Box w={size} h={size} bg="gray.2" c="gray.6" style={{ borderRadius: 8, display: 'grid', placeItems: 'center', flex: 'none' }}>
        <PhotoIcon size={Math.round(size / 3)} />
      </Box>
    );
  return (
    <img
      src={src}
      alt=""
      width={size}
      height={size}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      style={{ width: size, height: size, objectFit: 'cover', borderRadius: 8, flex: 'none', background: 'var(--mantine-color-gray-2)' }}
    />
  );
}
