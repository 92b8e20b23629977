import { Box, Container, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { GavelIcon } from '../components/icons';
import { SiteFooter } from '../components/site-footer';

/** The frame of the pages buyers open from a link: mobile-first, readable signed out. */
export function PublicLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack mih="100dvh" gap={0} bg="gray.0">
      <Box component="header" bg="white" px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Group gap={6} c="martillo.7" wrap="nowrap">
          <GavelIcon size={22} />
          <Text component="span" fw={800} fz="lg" c="dark.8">
            {t('common.appName')}
          </Text>
        </Group>
      </Box>
      <Container component="main" size="sm" w="100%" px="md" py="lg" flex={1}>
        {children}
      </Container>
      <SiteFooter />
    </Stack>
  );
}
