import { z } from 'zod';

/**
 * The share card's picture addresses: `/og/live/<session id>-<hash>.jpg`,
 * `/og/auction/<auction id>-<hash>.jpg`, `/og/tienda/<slug>-<hash>.jpg`, a show's lot
 * `/og/lote/<session id>_<auction id>-<hash>.jpg` (a link `…?lote={auctionId}`) and the site's own
 * `/og/martillo-<hash>.jpg`. The hash (10 characters) changes whenever the picture does.
 */
export const SHARE_CARD_FILE = /^([A-Za-z0-9_-]{1,100})-([a-z0-9]{10})\.jpg$/;

export const ZShareCardParams = z.object({
  kind: z.enum(['live', 'auction', 'tienda', 'lote']),
  file: z.string().max(120).regex(SHARE_CARD_FILE),
});

export const ZSiteCardParams = z.object({
  file: z
    .string()
    .max(40)
    .regex(/^martillo-[a-z0-9]{10}\.jpg$/),
});
