// Types of test-counts.mjs for the TypeScript tests that import it.
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  problems: string[];
}
export interface Summary extends Counts {
  line: string;
  exitCode: 0 | 1;
}
// biome-ignore lint/suspicious/noExplicitAny: the runners' JSON reports are read untyped
type Report = any;
export function checkCounts(name: string, ok: boolean): Counts;
export function vitestCounts(report: Report | null, exitCode: number | null, relative?: (file: string) => string): Counts;
export function playwrightCounts(name: string, report: Report | null, exitCode: number | null): Counts;
export function summarize(parts: Counts[]): Summary;
