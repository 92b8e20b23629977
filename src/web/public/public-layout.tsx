import { Container, type MantineSize, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { SiteFooter } from '../components/site-footer';
import { SiteHeader } from '../components/site-header';

/**
 * The frame of the pages buyers open: the buyers' header (brand, search, bell and links),
 * mobile-first, readable signed out. The home and the search page have their own search box
 * (`search={false}`).
 */
export function PublicLayout({ children, size = 'sm', search = true }: { children: ReactNode; size?: MantineSize; search?: boolean }) {
  return (
    <Stack mih="100dvh" gap={0} bg="gray.0">
      <SiteHeader search={search} />
      <Container component="main" size={size} w="100%" px="md" py="lg" flex={1}>
        {children}
      </Container>
      <SiteFooter />
    </Stack>
  );
}
