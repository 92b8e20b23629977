/** Placeholder until the page is built. */
export function StorePage(_props: { slug: string }) {
  return <main />;
}
