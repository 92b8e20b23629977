/** Placeholder until the page is built. */
export function SellPage() {
  return <main />;
}
