import type { Me } from '../../../domain/api-types.js';

export interface AuctionPanelProps {
  me: Me;
  onEdit: (auctionId: string) => void;
}

/** The auction management panel (SPEC §2 main area). */
export function AuctionPanel(_props: AuctionPanelProps) {
  return null;
}
