export interface AuctionFormModalProps {
  opened: boolean;
  /** null: create a new auction; otherwise edit this one. */
  auctionId: string | null;
  onClose: () => void;
}

/** The auction create/edit form (SPEC §5). */
export function AuctionFormModal(_props: AuctionFormModalProps) {
  return null;
}
