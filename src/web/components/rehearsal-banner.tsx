import { Alert, Badge, Text } from '@mantine/core';
import { useTranslation } from '../i18n';
import { AlertIcon } from './icons';
import classes from './rehearsal-banner.module.css';

/**
 * "Ensayo: nada es real" on a rehearsal ('Ensayo'): the seller's practice show, with simulated
 * bidders and viewers, where nothing is billed. `hub` is the Live Hub's (it says what happens when
 * the session ends), `page` the public page's, `phone` a badge over the phone's full-screen show
 * that never takes a tap from the controls under it, `phoneHub` the strip under the phone Hub's
 * top bar, there for the whole show.
 */
export function RehearsalBanner({ where }: { where: 'hub' | 'page' | 'phone' | 'phoneHub' }) {
  const { t } = useTranslation();
  if (where === 'phoneHub') {
    return (
      <div className={classes.phoneHub} role="status" data-testid="rehearsal-banner">
        <Badge color="grape" variant="white" size="lg" leftSection={<AlertIcon size={14} />} style={{ flex: 'none' }}>
          {t('livehub.rehearsal.phoneBadge')}
        </Badge>
        <Text size="sm" fw={600}>
          {t('livehub.rehearsal.phoneHint')}
        </Text>
      </div>
    );
  }
  if (where === 'phone') {
    return (
      <div className={classes.phone} role="status" data-testid="rehearsal-banner">
        <Badge color="grape" variant="filled" size="lg" leftSection={<AlertIcon size={14} />}>
          {t('live.rehearsal.banner')}
        </Badge>
      </div>
    );
  }
  const section = where === 'hub' ? 'livehub' : 'live';
  return (
    <Alert color="grape" variant="filled" icon={<AlertIcon />} role="status" data-testid="rehearsal-banner" title={t(`${section}.rehearsal.banner`)}>
      <Text size="sm">{t(`${section}.rehearsal.bannerHint`)}</Text>
    </Alert>
  );
}
