import { Group, Text } from '@mantine/core';
import { useTranslation } from '../i18n';
import { GavelIcon } from './icons';

/** The gavel and the name, as every header shows them. */
export function BrandMark({ size = 'xl' }: { size?: 'lg' | 'xl' }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="nowrap" c="martillo.7">
      <GavelIcon size={size === 'xl' ? 24 : 22} />
      <Text component="span" fw={800} fz={size} c="dark.8">
        {t('common.appName')}
      </Text>
    </Group>
  );
}
