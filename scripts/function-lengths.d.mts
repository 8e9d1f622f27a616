// Types of function-lengths.mjs for the TypeScript tests that import it.
export interface FunctionLength {
  /** Relative to the repository, with forward slashes. */
  file: string;
  name: string;
  /** 1-based line of the function's first token. */
  line: number;
  lines: number;
  /** Lines without the named functions inside it (its named steps). */
  ownLines: number;
  /** The text after the "Kept whole:" marker in the comment just above, if any. */
  reason: string | undefined;
}
export const ROOT: string;
export const SCANNED: string[];
export const MAX_LINES: number;
export const REASON_MARKER: string;
export function scanFunctions(root?: string, folders?: string[]): FunctionLength[];
export function longFunctions(functions: FunctionLength[], maxLines?: number): FunctionLength[];
