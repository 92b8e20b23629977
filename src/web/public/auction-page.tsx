import { usePublicAuction } from '../api/auctions';
import { AuctionLoadError, AuctionNotFound, AuctionSkeleton } from './auction/auction-states';
import { AuctionView } from './auction/auction-view';
import { PublicLayout } from './public-layout';

/** /auctions/{id}: the page a buyer opens from a shared link; works signed out, updates live. */
export function AuctionPage({ auctionId }: { auctionId: string }) {
  return (
    <PublicLayout size="lg">
      <AuctionContent auctionId={auctionId} />
    </PublicLayout>
  );
}

function AuctionContent({ auctionId }: { auctionId: string }) {
  const auction = usePublicAuction(auctionId);
  if (auction.isPending) return <AuctionSkeleton />;
  // A failed refetch keeps the page it already shows; only a first load that fails shows the error.
  if (auction.isError && auction.data === undefined) return <AuctionLoadError onRetry={() => void auction.refetch()} />;
  if (!auction.data) return <AuctionNotFound />;
  return <AuctionView auction={auction.data} receivedAt={auction.dataUpdatedAt} />;
}
