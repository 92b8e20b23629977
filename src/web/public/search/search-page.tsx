/** Placeholder until the page is built. */
export function SearchPage() {
  return <main />;
}
