import { Center, MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { LazyNotifications } from './components/lazy-notifications';
import { LoadErrorBoundary, LoadFailed } from './components/load-error-boundary';
import { LoadingScreen } from './components/loading-screen';
import { lazyPanelScreen } from './components/panel-screen';
import { useTranslation } from './i18n';
import { usePathname } from './lib/pathname';
import { screenForPath } from './routes';
import { cssVariablesResolver, themeWithLabels } from './theme';

// Every screen loads on demand: a buyer's phone fetches only the public page it opens, never the
// admin panel's code, and the panel is fetched by those who open it.
// The panel and the Live Hub bring React Router and @mantine/modals' provider with them (panel-screen.tsx).
const AdminPanel = lazyPanelScreen(() => import('./admin/admin-panel').then((m) => m.AdminPanel));
const LiveHub = lazyPanelScreen(() => import('./livehub/live-hub').then((m) => m.LiveHub));
const InvitationsScreen = lazyPanelScreen(() => import('./invitations/invitations-screen').then((m) => m.InvitationsScreen));
const AuctionPage = lazy(() => import('./public/auction-page').then((m) => ({ default: m.AuctionPage })));
const LivePage = lazy(() => import('./public/live-page').then((m) => ({ default: m.LivePage })));
const PayPage = lazy(() => import('./public/pay-page').then((m) => ({ default: m.PayPage })));
const PurchasesPage = lazy(() => import('./public/purchases/purchases-page').then((m) => ({ default: m.PurchasesPage })));
const HomePage = lazy(() => import('./public/home/home-page').then((m) => ({ default: m.HomePage })));
const SearchPage = lazy(() => import('./public/search/search-page').then((m) => ({ default: m.SearchPage })));
const StorePage = lazy(() => import('./public/store/store-page').then((m) => ({ default: m.StorePage })));
const AlertsPage = lazy(() => import('./public/alerts/alerts-page').then((m) => ({ default: m.AlertsPage })));
const SellPage = lazy(() => import('./public/sell/sell-page').then((m) => ({ default: m.SellPage })));

/** SPEC §2: the screen is chosen by path. */
function ScreenByPath() {
  const pathname = usePathname();
  const screen = screenForPath(pathname);
  switch (screen.kind) {
    case 'livehub':
      return <LiveHub />;
    case 'auction':
      return <AuctionPage key={screen.auctionId} auctionId={screen.auctionId} />;
    case 'live':
      return <LivePage slug={screen.slug} sessionId={screen.sessionId} />;
    case 'pay':
      return <PayPage key={screen.paymentId} paymentId={screen.paymentId} />;
    case 'invitations':
      return <InvitationsScreen />;
    case 'purchases':
      return <PurchasesPage />;
    case 'home':
      return <HomePage />;
    case 'search':
      return <SearchPage />;
    case 'store':
      return <StorePage key={screen.slug} slug={screen.slug} />;
    case 'alerts':
      return <AlertsPage />;
    case 'sell':
      return <SellPage />;
    case 'admin':
      return <AdminPanel />;
  }
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  const { t } = useTranslation();
  const theme = useMemo(() => themeWithLabels({ closeDialog: t('common.close'), closeNotice: t('common.closeNotice') }), [t]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <LazyNotifications />
        {/* A screen whose code did not arrive (offline, or a new deploy): say so and reload, not a blank page. */}
        <LoadErrorBoundary
          fallback={() => (
            <Center mih="100dvh" p="md">
              <LoadFailed message={t('common.screenLoadFailed')} onRetry={() => window.location.reload()} />
            </Center>
          )}
        >
          <Suspense fallback={<LoadingScreen />}>
            <ScreenByPath />
          </Suspense>
        </LoadErrorBoundary>
      </QueryClientProvider>
    </MantineProvider>
  );
}
