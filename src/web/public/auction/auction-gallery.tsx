import { ActionIcon, AspectRatio, Box, Center, Group, Image, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { type KeyboardEvent, type PointerEvent, useRef, useState } from 'react';
import type { AuctionImage } from '../../../domain/auctions.js';
import { ChevronLeftIcon, ChevronRightIcon, PhotoIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import classes from './auction-page.module.css';

/** A horizontal drag longer than this (px) turns the photo. */
const SWIPE_MIN_PX = 40;

/**
 * The main photo with arrows and thumbnails: swipe on a phone, arrow keys once focused, and a
 * thumbnail button per photo. The position is announced ('Foto 2 de 5') as it changes.
 */
export function AuctionGallery({ images, name }: { images: AuctionImage[]; name: string }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const swipeFrom = useRef<number | null>(null);
  const total = images.length;
  const current = images[Math.min(index, total - 1)];

  if (!current) {
    return (
      <AspectRatio ratio={4 / 3}>
        <Center bg="gray.1" c="gray.5" className={classes.galleryFrame} role="img" aria-label={t('bidding.gallery.noImages')}>
          <PhotoIcon size={48} />
        </Center>
      </AspectRatio>
    );
  }

  const go = (next: number) => setIndex((next + total) % total);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') go(index - 1);
    else if (event.key === 'ArrowRight') go(index + 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(total - 1);
    else return;
    event.preventDefault();
  };
  const onPointerDown = (event: PointerEvent) => {
    swipeFrom.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent) => {
    const from = swipeFrom.current;
    swipeFrom.current = null;
    if (from === null || total < 2) return;
    const dx = event.clientX - from;
    if (Math.abs(dx) >= SWIPE_MIN_PX) go(dx < 0 ? index + 1 : index - 1);
  };
  const position = t('bidding.gallery.position', { index: index + 1, total });

  return (
    <Stack gap="xs">
      <Box
        component="section"
        aria-roledescription={t('bidding.gallery.roleDescription')}
        aria-label={t('bidding.gallery.label', { name })}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          swipeFrom.current = null;
        }}
        className={classes.gallery}
        data-testid="gallery"
      >
        <AspectRatio ratio={4 / 3}>
          <Box bg="gray.1" className={classes.galleryFrame}>
            <Image
              src={current.url}
              alt={total > 1 ? `${t('publicAuction.imageAlt', { name })} (${position})` : t('publicAuction.imageAlt', { name })}
              fit="contain"
              h="100%"
              w="100%"
              // The page's largest paint on a phone: fetched ahead of the thumbnails and the rest.
              fetchPriority="high"
              draggable={false}
            />
          </Box>
        </AspectRatio>
        {total > 1 && (
          <>
            <ActionIcon
              className={classes.galleryArrow}
              data-side="left"
              variant="white"
              color="dark"
              radius="xl"
              size="lg"
              aria-label={t('bidding.gallery.previous')}
              onClick={() => go(index - 1)}
            >
              <ChevronLeftIcon />
            </ActionIcon>
            <ActionIcon
              className={classes.galleryArrow}
              data-side="right"
              variant="white"
              color="dark"
              radius="xl"
              size="lg"
              aria-label={t('bidding.gallery.next')}
              onClick={() => go(index + 1)}
            >
              <ChevronRightIcon />
            </ActionIcon>
            <Text className={classes.galleryCounter} size="xs" fw={600} aria-hidden="true">
              {index + 1} / {total}
            </Text>
            <VisuallyHidden aria-live="polite">{position}</VisuallyHidden>
          </>
        )}
      </Box>
      {total > 1 && (
        <Group gap="xs" wrap="nowrap" className={classes.thumbnails} role="group" aria-label={t('bidding.gallery.thumbnails')}>
          {images.map((image, i) => (
            <UnstyledButton
              key={image.url}
              onClick={() => setIndex(i)}
              className={classes.thumbnail}
              data-active={i === index || undefined}
              aria-current={i === index ? 'true' : undefined}
              aria-label={t('bidding.gallery.thumbnail', { index: i + 1, total })}
            >
              <Image src={image.thumbnailUrl ?? image.url} alt="" w={64} h={64} fit="cover" radius="sm" loading="lazy" />
            </UnstyledButton>
          ))}
        </Group>
      )}
    </Stack>
  );
}
