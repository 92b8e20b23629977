import { Box, Container, Group, type MantineSize, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { BrandMark } from '../components/brand-mark';
import { SiteFooter } from '../components/site-footer';
import { PurchasesLink } from './purchases/purchases-link';
import { SellLink } from './sell/sell-link';

/** The frame of the pages buyers open from a link: mobile-first, readable signed out. */
export function PublicLayout({ children, size = 'sm' }: { children: ReactNode; size?: MantineSize }) {
  return (
    <Stack mih="100dvh" gap={0} bg="gray.0">
      <Box component="header" bg="white" px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Group justify="space-between" wrap="nowrap">
          <BrandMark size="lg" />
          <Group gap="md" wrap="nowrap">
            <SellLink />
            <PurchasesLink />
          </Group>
        </Group>
      </Box>
      <Container component="main" size={size} w="100%" px="md" py="lg" flex={1}>
        {children}
      </Container>
      <SiteFooter />
    </Stack>
  );
}
