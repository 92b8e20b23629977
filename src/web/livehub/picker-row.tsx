import { Alert, Button, Center, Group, Image, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { type PickerItem, type PickerKind, pickerKind } from '../../domain/live.js';
import { formatMoney } from '../../domain/money.js';
import { AuctionStatusBadge } from '../components/auction-status-badge';
import { PhotoIcon } from '../components/icons';
import { useTranslation } from '../i18n';
import { formatDate } from '../lib/dates';

/** How an end time reads in a picker row: 'vie. 14 de nov., 20:00' (Mexico City). */
const END_FORMAT = 'ddd D [de] MMM, HH:mm';

/** A touch target on a phone is at least 44 px tall (WCAG 2.5.5, Apple's and Google's guides). */
export const PHONE_TARGET_PX = 44;

/**
 * One auction the picker offers: photo, name, price, status, and for an auction already running
 * online its own end (and bids). Adding one that runs with bids asks first, in the row, saying what
 * will happen to it (domain/live.ts pickerKind).
 */
export function PickerRow({
  item,
  now,
  isPhone,
  isAdding,
  disabled,
  onAdd,
}: {
  item: PickerItem;
  now: number;
  isPhone: boolean;
  isAdding: boolean;
  disabled: boolean;
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // The question takes the focus (a keyboard or screen-reader user hears it), on its safe answer.
  useEffect(() => {
    if (asking) cancelRef.current?.focus();
  }, [asking]);
  const name = item.name || t('livehub.picker.unnamed');
  const price = item.currentPrice ?? item.startingPrice;
  const kind: PickerKind = pickerKind(item, now);
  const ends = item.endTime !== null ? formatDate(item.endTime, END_FORMAT) : '';
  const buttonSize = isPhone ? 'lg' : 'compact-sm';

  return (
    <Stack
      component="li"
      gap="xs"
      p={isPhone ? 'xs' : 6}
      mih={isPhone ? PHONE_TARGET_PX : undefined}
      data-picker-kind={kind}
      style={{ listStyle: 'none', borderRadius: 10, border: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Group gap="sm" wrap="nowrap">
        {item.thumbnailUrl ? (
          <Image src={item.thumbnailUrl} alt="" w={48} h={48} radius="sm" fit="cover" style={{ flex: 'none' }} />
        ) : (
          <Center w={48} h={48} bg="gray.1" c="gray.5" style={{ borderRadius: 6, flex: 'none' }}>
            <PhotoIcon size={20} />
          </Center>
        )}
        <Stack gap={2} miw={0} style={{ flex: 1 }}>
          <Text size="sm" fw={600} lineClamp={2} fs={item.name ? undefined : 'italic'}>
            {name}
          </Text>
          <Group gap={6}>
            <Text size="xs" c="dimmed">
              {t('livehub.picker.price', { price: formatMoney(price) })}
            </Text>
            <AuctionStatusBadge status={item.status} size="sm" />
            {item.bidCount > 0 && (
              <Text size="xs" c="dimmed">
                {t('livehub.lots.bids', { count: item.bidCount })}
              </Text>
            )}
          </Group>
          {kind !== 'waits' && (
            <Text size="xs" c={kind === 'runsWithBids' ? 'orange' : 'dimmed'} data-testid="picker-ends">
              {t('livehub.picker.endsOnItsOwn', { date: ends })}
            </Text>
          )}
        </Stack>
        {!asking && (
          <Button
            size={buttonSize}
            onClick={() => (kind === 'runsWithBids' ? setAsking(true) : onAdd())}
            loading={isAdding}
            disabled={disabled && !isAdding}
            aria-label={t('livehub.picker.addLabel', { name })}
            style={{ flex: 'none' }}
          >
            {t('livehub.picker.add')}
          </Button>
        )}
      </Group>
      {asking && (
        // Mantine's Alert names itself by its title and is described by its body.
        <Alert color="orange" variant="light" role="alertdialog" title={t('livehub.picker.withBids.title', { count: item.bidCount })} p="sm">
          <Stack gap="xs">
            <Text size="sm">{t('livehub.picker.withBids.text', { date: ends })}</Text>
            <Group gap="xs" justify="flex-end" wrap="wrap">
              <Button ref={cancelRef} size={buttonSize} variant="default" onClick={() => setAsking(false)}>
                {t('livehub.picker.withBids.cancel')}
              </Button>
              <Button
                size={buttonSize}
                color="orange"
                loading={isAdding}
                disabled={disabled && !isAdding}
                aria-label={t('livehub.picker.withBids.confirmLabel', { name })}
                onClick={() => {
                  setAsking(false);
                  onAdd();
                }}
              >
                {t('livehub.picker.withBids.confirm')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
