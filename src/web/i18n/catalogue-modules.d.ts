// A part of a JSON catalogue (parts.ts): its top-level sections for the public pages, or the rest.
declare module '*.json?public' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?panel' {
  const strings: Record<string, unknown>;
  export default strings;
}
