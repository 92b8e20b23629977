import type { AuctionHold } from '../../../domain/auction-list.js';
import {
  type AuctionDetail,
  type AuctionImage,
  type AuctionListItem,
  type AuctionStatus,
  type Condicion,
  deriveAuctionStatus,
  type PublicAuction,
} from '../../../domain/auctions.js';
import { maskName } from '../../../domain/bidding.js';
import type { StoreLink } from '../../../domain/storefront.js';
import type { auctions } from '../../db/schema.js';

type AuctionRow = typeof auctions.$inferSelect;

const ms = (d: Date | null): number | null => (d ? d.getTime() : null);

export function presentListItem(
  row: Pick<
    AuctionRow,
    | 'id'
    | 'name'
    | 'companyId'
    | 'categoryId'
    | 'condicion'
    | 'status'
    | 'endTime'
    | 'startingPrice'
    | 'buyNowPrice'
    | 'currentPrice'
    | 'bidCount'
    | 'currentWinnerName'
    | 'sellerId'
    | 'version'
  > & { categoryName: string | null; thumbnailUrl: string | null; companyName: string | null; heldBy: AuctionHold | null },
  now: number,
): AuctionListItem {
  const endTime = ms(row.endTime);
  return {
    id: row.id,
    name: row.name,
    thumbnailUrl: row.thumbnailUrl,
    companyId: row.companyId,
    companyName: row.companyName,
    categoryId: row.categoryId,
    categoryName: row.categoryName,
    condicion: row.condicion as Condicion | null,
    status: deriveAuctionStatus(row.status as AuctionStatus, endTime, now),
    endTime,
    startingPrice: row.startingPrice,
    buyNowPrice: row.buyNowPrice,
    currentPrice: row.currentPrice,
    bidCount: row.bidCount,
    currentWinnerName: row.currentWinnerName,
    sellerId: row.sellerId,
    version: row.version,
    heldBy: row.heldBy,
  };
}

export interface AuctionRelations {
  categoryName: string | null;
  companyName: string | null;
  imageDetails: AuctionImage[];
  /** The seller's page, when they have one. */
  store: StoreLink | null;
}

/** What anyone may see: no winner contact details, no seller id. */
export function presentPublic(row: AuctionRow, rel: AuctionRelations, now: number): PublicAuction {
  const endTime = ms(row.endTime);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    startingPrice: row.startingPrice,
    buyNowPrice: row.buyNowPrice,
    currentPrice: row.currentPrice,
    bidCount: row.bidCount,
    images: row.images,
    imageDetails: rel.imageDetails,
    categoryId: row.categoryId,
    categoryName: rel.categoryName,
    condicion: row.condicion as Condicion | null,
    marca: row.marca,
    envio: row.envio,
    endTime,
    status: deriveAuctionStatus(row.status as AuctionStatus, endTime, now),
    companyId: row.companyId,
    companyName: rel.companyName,
    // Bidders are never named in full in public: 'Ju***'.
    currentWinnerName: row.currentWinnerName === null ? null : maskName(row.currentWinnerName),
    createdAt: row.createdAt.getTime(),
    version: row.version,
    serverNow: now,
    store: rel.store,
  };
}

/** The auction's own panel also sees the seller, the winner's contact (SPEC winnerDetails) and its payment. */
export function presentDetail(row: AuctionRow, rel: AuctionRelations & { paymentId: string | null; canDelete: boolean }, now: number): AuctionDetail {
  const hasWinnerDetails = row.winnerEmail !== null || row.winnerWhatsapp !== null;
  return {
    ...presentPublic(row, rel, now),
    currentWinnerName: row.currentWinnerName,
    sellerId: row.sellerId,
    currentWinnerId: row.currentWinnerId,
    winnerDetails: hasWinnerDetails ? { email: row.winnerEmail, whatsapp: row.winnerWhatsapp } : null,
    paymentId: rel.paymentId,
    canDelete: rel.canDelete,
  };
}
