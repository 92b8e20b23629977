/** Placeholder until the page is built. */
export function AlertsPage() {
  return <main />;
}
