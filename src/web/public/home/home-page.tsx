/** Placeholder until the page is built. */
export function HomePage() {
  return <main />;
}
