import { Button, Group, Text } from '@mantine/core';
import { followSeller } from '../../api/follows';
import { useTranslation } from '../../i18n';
import { CheckIcon } from '../icons';
import { PlusIcon } from './follow-icons';
import { usePushOffer } from './push-prompt';
import { useOptimisticToggle } from './use-toggle';
import './strings';

/**
 * *Seguir* / *Siguiendo*: one tap follows, one tap undoes. Signed out, the tap signs in and comes
 * back. After a follow, alerts on this phone are offered. With `followers`, the count shows beside it.
 */
export function FollowButton({
  sellerId,
  following,
  followers,
  size = 'sm',
}: {
  sellerId: string;
  following: boolean;
  followers?: number;
  size?: 'xs' | 'sm' | 'md';
}) {
  const { t } = useTranslation();
  const push = usePushOffer();
  const { value, toggle, isSending } = useOptimisticToggle({
    value: { isOn: following, followers: followers ?? null },
    optimistic: (current, next) => ({ isOn: next, followers: current.followers === null ? null : Math.max(0, current.followers + (next ? 1 : -1)) }),
    send: async (next) => {
      const answer = await followSeller(sellerId, next);
      return answer ? { isOn: answer.following, followers: followers === undefined ? null : answer.followers } : null;
    },
    failedText: (next) => t(next ? 'follow.followFailed' : 'follow.unfollowFailed'),
    onTurnedOn: push.offer,
  });

  return (
    <Group gap="sm" wrap="nowrap" data-testid="follow" data-following={value.isOn}>
      <Button
        size={size}
        radius="xl"
        variant={value.isOn ? 'light' : 'filled'}
        leftSection={value.isOn ? <CheckIcon size={16} /> : <PlusIcon size={16} />}
        aria-pressed={value.isOn}
        title={value.isOn ? t('follow.followHint') : undefined}
        onClick={() => void toggle()}
        disabled={isSending}
        data-testid="follow-button"
      >
        {value.isOn ? t('follow.following') : t('follow.follow')}
      </Button>
      {value.followers !== null && (
        <Text size="sm" c="dimmed" data-testid="followers" data-count={value.followers}>
          {t('follow.followers', { count: value.followers })}
        </Text>
      )}
      {push.prompt}
    </Group>
  );
}
