import { Box, Container, type MantineSize, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { BrandMark } from '../components/brand-mark';
import { SiteFooter } from '../components/site-footer';

/** The frame of the pages buyers open from a link: mobile-first, readable signed out. */
export function PublicLayout({ children, size = 'sm' }: { children: ReactNode; size?: MantineSize }) {
  return (
    <Stack mih="100dvh" gap={0} bg="gray.0">
      <Box component="header" bg="white" px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <BrandMark size="lg" />
      </Box>
      <Container component="main" size={size} w="100%" px="md" py="lg" flex={1}>
        {children}
      </Container>
      <SiteFooter />
    </Stack>
  );
}
