import { ActionIcon, Badge, Box, Button, Group, Image, Paper, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { type DragEvent, useState } from 'react';
import { useTranslation } from '../../i18n';
import { ChevronLeftIcon, ChevronRightIcon } from '../icons';
import { CloseIcon, LockIcon, RetryIcon } from '../panel-icons';
import type { ImageItem } from './use-image-uploads';

/** The MIME type that marks a drag as one of our tiles (a file dragged in from the desktop has none). */
export const TILE_DRAG_TYPE = 'application/x-martillo-image-tile';

interface ImageTileProps {
  item: ImageItem;
  index: number;
  count: number;
  isDragging: boolean;
  isDropTarget: boolean;
  onMove: (key: string, toIndex: number) => void;
  /** null: bidders saw this photo, so it stays. */
  onRemove: ((key: string) => void) | null;
  onRetry: (key: string) => void;
  onDragStart: (key: string) => void;
  onDragOverTile: (index: number) => void;
  onDropOnTile: (index: number) => void;
  onDragEnd: () => void;
}

/** One image: thumbnail, 'Portada' on the first, its own progress or error, and its controls. */
export function ImageTile(props: ImageTileProps) {
  const { item, index, count, isDragging, isDropTarget, onMove, onRemove, onRetry } = props;
  const { t } = useTranslation();
  const position = index + 1;
  const isCover = index === 0;
  const src = item.thumbnailUrl ?? item.url ?? item.previewUrl;
  // A file that is not really an image has no preview: show its name instead of a broken picture.
  const [brokenSrc, setBrokenSrc] = useState<string | null>(null);
  const isBroken = src !== null && brokenSrc === src;
  const percent = Math.round(item.progress * 100);
  const label = isCover ? t('auctionForm.images.coverAlt', { position }) : t('auctionForm.images.alt', { position });

  const handleDragStart = (event: DragEvent<HTMLDivElement>) => {
    event.dataTransfer.effectAllowed = 'move';
    // Firefox starts a drag only with some data set.
    event.dataTransfer.setData(TILE_DRAG_TYPE, item.key);
    event.dataTransfer.setData('text/plain', item.key);
    props.onDragStart(item.key);
  };
  const isTileDrag = (event: DragEvent) => event.dataTransfer.types.includes(TILE_DRAG_TYPE);

  return (
    <Paper
      withBorder
      radius="md"
      p={6}
      role="listitem"
      aria-label={label}
      data-status={item.status}
      data-cover={isCover || undefined}
      draggable
      onDragStart={handleDragStart}
      onDragOver={(event) => {
        if (!isTileDrag(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        props.onDragOverTile(index);
      }}
      onDrop={(event) => {
        if (!isTileDrag(event)) return;
        event.preventDefault();
        event.stopPropagation();
        props.onDropOnTile(index);
      }}
      onDragEnd={props.onDragEnd}
      style={{
        cursor: 'grab',
        opacity: isDragging ? 0.4 : 1,
        outline: isDropTarget ? '2px dashed var(--mantine-primary-color-filled)' : undefined,
        outlineOffset: 2,
      }}
    >
      <Stack gap={6} h="100%" justify="space-between">
        <Box pos="relative" style={{ aspectRatio: '1 / 1', overflow: 'hidden', borderRadius: 'var(--mantine-radius-sm)' }} bg="gray.1">
          {src && !isBroken ? (
            <Image
              src={src}
              alt={label}
              h="100%"
              w="100%"
              fit="cover"
              draggable={false}
              onError={() => setBrokenSrc(src)}
              style={{ opacity: item.status === 'done' ? 1 : 0.6 }}
            />
          ) : (
            <Text size="xs" c="dimmed" p="xs" pt={36} ta="center" style={{ wordBreak: 'break-all' }}>
              {item.file?.name ?? label}
            </Text>
          )}
          {isCover && (
            <Badge pos="absolute" top={6} left={6} size="sm" color="oro.7" variant="filled">
              {t('auctionForm.images.cover')}
            </Badge>
          )}
          {onRemove ? (
            <Tooltip label={t('auctionForm.images.remove', { position })} withinPortal>
              <ActionIcon
                pos="absolute"
                top={6}
                right={6}
                size="sm"
                radius="xl"
                variant="white"
                color="red"
                aria-label={t('auctionForm.images.remove', { position })}
                onClick={() => onRemove(item.key)}
              >
                <CloseIcon size={16} />
              </ActionIcon>
            </Tooltip>
          ) : (
            <Tooltip label={t('auctionForm.locked.imageKept', { position })} withinPortal>
              <Box
                pos="absolute"
                top={6}
                right={6}
                bg="white"
                c="orange"
                px={4}
                pt={2}
                style={{ borderRadius: 'var(--mantine-radius-xl)', lineHeight: 0 }}
                role="img"
                aria-label={t('auctionForm.locked.imageKept', { position })}
                tabIndex={0}
              >
                <LockIcon size={16} />
              </Box>
            </Tooltip>
          )}
        </Box>
        {item.status === 'uploading' && (
          <Stack gap={2}>
            <Progress value={percent} size="sm" animated aria-label={t('auctionForm.images.progress', { position })} />
            <Text size="xs" c="dimmed">
              {t('auctionForm.images.uploading', { percent })}
            </Text>
          </Stack>
        )}
        {item.status === 'error' && (
          <Stack gap={4}>
            <Text size="xs" c="red" role="alert">
              {item.error}
            </Text>
            {item.file && (
              <Button
                size="compact-xs"
                variant="light"
                leftSection={<RetryIcon size={16} />}
                onClick={() => onRetry(item.key)}
                aria-label={t('auctionForm.images.retryAria', { position })}
              >
                {t('auctionForm.images.retry')}
              </Button>
            )}
          </Stack>
        )}
        <Group justify="space-between" gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={t('auctionForm.images.moveLeft', { position })}
            disabled={index === 0}
            onClick={() => onMove(item.key, index - 1)}
          >
            <ChevronLeftIcon size={16} />
          </ActionIcon>
          <Text size="xs" c="dimmed" aria-hidden="true">
            {position}
          </Text>
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={t('auctionForm.images.moveRight', { position })}
            disabled={index === count - 1}
            onClick={() => onMove(item.key, index + 1)}
          >
            <ChevronRightIcon size={16} />
          </ActionIcon>
        </Group>
      </Stack>
    </Paper>
  );
}
