import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Me } from '../../../domain/api-types.js';
import { invitationAcceptance, type ReceivedInvitation } from '../../../domain/invitation-rules.js';
import { useTranslation } from '../../i18n';
import { formatDate } from '../../lib/dates';

export type InvitationChoice = 'accept' | 'decline';

/**
 * One invitation: who invites, as what, what accepting shares and changes, and the two answers.
 * An admin cannot accept (invitation-rules.ts) and is told why; declining is always possible.
 */
export function InvitationCard({
  me,
  invitation,
  busy,
  onAnswer,
}: {
  me: Me;
  invitation: ReceivedInvitation;
  /** The answer on its way for this card, if any: every button waits for it. */
  busy: InvitationChoice | 'other' | null;
  onAnswer: (choice: InvitationChoice) => void;
}) {
  const { t } = useTranslation();
  const company = invitation.companyName ?? invitation.companyId;
  const effect = invitationAcceptance({ roles: me.roles, profileCompanyId: me.profile.companyId }, invitation.companyId);
  const titleId = `invitation-${invitation.id}-title`;

  return (
    <Paper component="article" withBorder radius="md" p="md" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={titleId}>
          {t('invitations.cardTitle', { company })}
        </Title>
        <Text size="sm">{t('invitations.role', { company })}</Text>
        <Stack gap={2}>
          {invitation.invitedByName && (
            <Text size="sm" c="dimmed">
              {t('invitations.invitedBy', { name: invitation.invitedByName })}
            </Text>
          )}
          <Text size="sm" c="dimmed">
            {t('invitations.expires', { date: formatDate(invitation.expiresAt) })}
          </Text>
        </Stack>
        {effect === 'move' && (
          <Alert color="orange" variant="light">
            {t('invitations.move', { company })}
          </Alert>
        )}
        {effect === 'member' && (
          <Alert color="blue" variant="light">
            {t('invitations.member', { company })}
          </Alert>
        )}
        {effect === 'adminBlocked' ? (
          <Alert color="gray" variant="light">
            {t('invitations.adminBlocked')}
          </Alert>
        ) : (
          <Text size="sm">{t('invitations.shares', { company })}</Text>
        )}
        <Group grow gap="sm" mt="xs">
          <Button
            variant="default"
            size="md"
            onClick={() => onAnswer('decline')}
            loading={busy === 'decline'}
            disabled={busy !== null && busy !== 'decline'}
            aria-label={t('invitations.declineFor', { company })}
          >
            {t('invitations.decline')}
          </Button>
          <Button
            size="md"
            onClick={() => onAnswer('accept')}
            loading={busy === 'accept'}
            disabled={effect === 'adminBlocked' || (busy !== null && busy !== 'accept')}
            aria-label={t('invitations.acceptFor', { company })}
          >
            {t('invitations.accept')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
