import { ActionIcon, Badge, Center, Group, Image, Menu, Text, UnstyledButton } from '@mantine/core';
import type { LiveSessionListItem } from '../../../domain/live.js';
import { BroadcastIcon } from '../../components/icons';
import { DotsIcon, PencilIcon, TrashIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { SessionStatusBadge } from '../session-bar';
import classes from './phone-shows.module.css';
import { showDateLabel } from './show-groups';

interface ShowCardProps {
  session: LiveSessionListItem;
  now: number;
  /** The shop's name, when the list holds several shops' shows (an admin's). */
  showSeller: boolean;
  onLoad: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/**
 * One show on the phone list: a tap anywhere on it loads it. Two shows of the same title are told
 * apart by what the card reads out: the date and time, the lots, the status (and 'Ensayo'), the cover.
 * 'Editar' and 'Eliminar' sit beside it, as in the sessions table, for the seller's own shows.
 */
export function ShowCard({ session, now, showSeller, onLoad, onEdit, onDelete }: ShowCardProps) {
  const { t } = useTranslation();
  const lots = session.lotCount === 0 ? t('livehub.phoneShows.noLots') : t('livehub.phoneShows.lots', { count: session.lotCount });
  return (
    <li className={classes.card} data-session-id={session.id} data-status={session.status}>
      <UnstyledButton className={classes.load} onClick={onLoad} data-testid="show-card">
        {session.coverImageUrl ? (
          <Image src={session.coverImageUrl} alt="" className={classes.cover} fit="cover" />
        ) : (
          <Center className={classes.cover} bg="gray.1" c="gray.6" aria-hidden="true">
            <BroadcastIcon size={22} />
          </Center>
        )}
        <span className={classes.text}>
          <Text component="span" fw={700} size="md" className={classes.title}>
            {session.title}
          </Text>
          <Text component="span" size="sm" c="dark.6" className={classes.line}>
            <time dateTime={new Date(session.scheduledAt).toISOString()}>{showDateLabel(session.scheduledAt, now)}</time>
            {' · '}
            {lots}
          </Text>
          {showSeller && (
            <Text component="span" size="xs" c="dark.4" className={classes.line}>
              {session.sellerName}
            </Text>
          )}
          <Group component="span" gap={6} mt={2}>
            <SessionStatusBadge status={session.status} />
            {session.rehearsal && (
              <Badge color="grape" variant="light" tt="none">
                {t('livehub.phoneShows.rehearsal')}
              </Badge>
            )}
          </Group>
        </span>
      </UnstyledButton>
      {session.canEdit && (
        <Menu position="bottom-end" withinPortal shadow="md" width={200}>
          <Menu.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              className={classes.more}
              aria-label={t('livehub.phoneShows.actions', { title: session.title, date: showDateLabel(session.scheduledAt, now) })}
            >
              <DotsIcon size={20} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item className={classes.menuItem} leftSection={<PencilIcon size={16} />} onClick={onEdit}>
              {t('livehub.manage.edit')}
            </Menu.Item>
            <Menu.Item className={classes.menuItem} color="red" leftSection={<TrashIcon size={16} />} onClick={onDelete}>
              {t('livehub.manage.deleteYes')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
    </li>
  );
}
