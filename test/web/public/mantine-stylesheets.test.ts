import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The public pages load only the Mantine stylesheets that src/web/main.tsx lists (they
 * weigh on a buyer's first load); the panel loads the whole set. A Mantine component new to a public page without its
 * stylesheet there would render unstyled for buyers and nowhere else, so this walks the public
 * pages' imports (src/web/public and what it reaches in src/web, not the panel or the Live Hub)
 * and checks every Mantine component with a stylesheet of its own has it listed.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const web = path.join(root, 'src/web');
const mantineStyles = path.join(root, 'node_modules/@mantine/core/styles');

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (candidate.startsWith(web) && existsSync(candidate) && /\.tsx?$/.test(candidate)) return candidate;
  }
  return null;
}

/** Every web module the public pages reach, and the Mantine components they import. */
function publicMantineComponents(): Map<string, string> {
  const entries = ['public/auction-page.tsx', 'public/live-page.tsx', 'public/pay-page.tsx', 'App.tsx'].map((f) => path.join(web, f));
  const seen = new Set<string>();
  const components = new Map<string, string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'@mantine\/core'/g)) {
      for (const name of (match[1] as string).split(',').map(
        (part) =>
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0] as string,
      )) {
        if (/^[A-Z]/.test(name)) components.set(name, path.relative(root, file));
      }
    }
    for (const match of source.matchAll(/(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/g)) {
      const target = resolveImport(file, (match[1] ?? match[2]) as string);
      // The panel, the Live Hub and the invitations screen load every stylesheet with them (components/panel-screen.tsx).
      if (target && !/^(admin|livehub|invitations)[\\/]/.test(path.relative(web, target))) queue.push(target);
    }
  }
  return components;
}

describe("the public pages' Mantine stylesheets (src/web/main.tsx)", () => {
  it('list every component the public pages use that has a stylesheet of its own', () => {
    const listed = new Set([...readFileSync(path.join(web, 'main.tsx'), 'utf8').matchAll(/@mantine\/core\/styles\/(\w+)\.css/g)].map((m) => m[1]));
    const components = publicMantineComponents();
    expect(components.size).toBeGreaterThan(10);
    const missing = [...components].filter(([name]) => existsSync(path.join(mantineStyles, `${name}.css`)) && !listed.has(name));
    expect(missing.map(([name, file]) => `${name} (${file})`)).toEqual([]);
  });
});
