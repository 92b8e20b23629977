import { Anchor, Group, Text } from '@mantine/core';
import { useTranslation } from '../i18n';
import { PRIVACY_POLICY_PATH } from '../routes';

/** '© <this year> Martillo' and the privacy notice, a static page served from public/. */
export function SiteFooter({ inverted = false }: { inverted?: boolean }) {
  const { t } = useTranslation();
  const color = inverted ? 'gray.4' : 'dimmed';
  return (
    <Group component="footer" justify="center" gap="md" py="md" px="md">
      <Text size="sm" c={color}>
        {t('footer.copyright', { year: new Date().getFullYear() })}
      </Text>
      <Anchor href={PRIVACY_POLICY_PATH} size="sm" c={inverted ? 'gray.3' : undefined}>
        {t('footer.privacy')}
      </Anchor>
    </Group>
  );
}
