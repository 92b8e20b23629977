import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, Result } from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * axe-core run inside the page, the findings that count being the serious and
 * critical ones. axe's own source is injected as a script (nothing is fetched), and transitions are
 * switched off first so a modal caught mid-fade is not measured at half its opacity.
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What fails the suite; A11Y_ALL=1 lists the moderate and minor findings too, for a walkthrough. */
const BLOCKING = new Set(process.env.A11Y_ALL ? ['minor', 'moderate', 'serious', 'critical'] : ['serious', 'critical']);

export interface A11yFinding {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  /** The first few offending elements, each with axe's summary of what is wrong. */
  nodes: string[];
}

/** Runs axe on the page as it stands and answers its serious and critical findings, named by screen. */
export async function auditPage(page: Page, screen: string): Promise<A11yFinding[]> {
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  // Evaluated through the debugging protocol: the page's CSP (script-src 'self') rightly refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // Two frames, so styles applied above have been painted.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<unknown> } }).axe.run(document, { resultTypes: ['violations'] }),
  )) as AxeResults;
  return results.violations
    .filter((v: Result) => BLOCKING.has(v.impact ?? ''))
    .map((v: Result) => ({
      screen,
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      // The element's own markup too: a generated id (#mantine-…) alone does not say which element it is.
      nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} ${shortHtml(n.html)} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`),
    }));
}

/** An element's opening tag as axe reports it, on one line and cut short. */
function shortHtml(html: string): string {
  const line = html.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** The findings as one readable report, for a failed assertion. */
export function formatFindings(findings: readonly A11yFinding[]): string {
  return findings.map((f) => `[${f.screen}] ${f.rule} (${f.impact}): ${f.help}\n${f.nodes.map((n) => `    ${n}`).join('\n')}`).join('\n');
}
