// A part of a JSON catalogue (parts.ts): its top-level sections for the public pages, or the rest.
declare module '*.json?public' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?panel' {
  const strings: Record<string, unknown>;
  export default strings;
}
// One page's own section (parts.ts, PAGE_NAMESPACES).
declare module '*.json?section=live' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?section=prebids' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?section=checkout' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?section=profile' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?section=purchases' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?section=sell' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?section=home' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?section=search' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?section=follow' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?section=pushPrompt' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?section=store' {
  const strings: Record<string, unknown>;
  export default strings;
}
declare module '*.json?section=alerts' {
  const strings: Record<string, unknown>;
  export default strings;
}
