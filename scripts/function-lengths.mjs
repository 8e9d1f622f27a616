// Lists the functions (React components too) longer than a reader can hold in mind, using the TypeScript compiler's
// own parser. A function may stay long only with a comment just above it saying why:
//   // Kept whole: <why it reads best as one piece>
// Run `node scripts/function-lengths.mjs` to see them; test/lint/function-length.test.ts fails on any without a reason.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SyntaxKind } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The folders whose functions are held to the limit. */
export const SCANNED = ['engine', 'main', 'preload', 'renderer/src', 'challenges', 'scripts'];
/** A function over this many lines (from its first token to its last) needs a reason to stay whole. */
export const MAX_LINES = 120;
/** The marker of that reason; what follows it must say why. */
export const REASON_MARKER = 'Kept whole:';

const FUNCTION_KINDS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);

/** A name a reader can find: the declared one, else the variable, property or call the function is given to. */
function functionName(node, sourceFile) {
  if (node.kind === SyntaxKind.Constructor) return 'constructor';
  if (node.name) return node.name.getText(sourceFile);
  const parent = node.parent;
  if (parent?.name && (parent.kind === SyntaxKind.VariableDeclaration || parent.kind === SyntaxKind.PropertyAssignment)) {
    return parent.name.getText(sourceFile);
  }
  if (parent?.kind === SyntaxKind.CallExpression) {
    const callee = parent.expression.getText(sourceFile);
    // A wrapped component (`memo(function X() {...})`, `forwardRef(...)`) is named by what holds it.
    const holder = parent.parent;
    if (holder?.kind === SyntaxKind.VariableDeclaration && holder.name) return holder.name.getText(sourceFile);
    return `${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee}(callback)`;
  }
  return '(anonymous)';
}

/** The comment lines directly above `line` (0-based), nearest last; a blank line or code ends the block. */
function commentBlockAbove(lines, line) {
  const block = [];
  let inBlockComment = false;
  for (let i = line - 1; i >= 0; i--) {
    const text = lines[i].trim();
    if (text.endsWith('*/') && !text.startsWith('//')) inBlockComment = true;
    const isComment = inBlockComment || text.startsWith('//') || text.startsWith('/*') || text.startsWith('*');
    if (!isComment || text === '') break;
    if (text.startsWith('/*')) inBlockComment = false;
    block.unshift(text);
  }
  return block;
}

/** The reason given above the function (the text after the marker), or undefined when there is none. */
function reasonAbove(lines, line) {
  for (const text of commentBlockAbove(lines, line)) {
    const at = text.indexOf(REASON_MARKER);
    if (at >= 0) {
      const reason = text
        .slice(at + REASON_MARKER.length)
        .replace(/\*\/\s*$/, '')
        .trim();
      if (reason.length > 0) return reason;
    }
  }
  return undefined;
}

function functionsIn(sourceFile, relativeName) {
  const sourceLines = sourceFile.text.split('\n');
  const found = [];
  const lineOf = (position) => sourceFile.getLineAndCharacterOfPosition(position).line;
  const sumOver = (node) => {
    let sum = 0;
    node.forEachChild((child) => {
      sum += visit(child);
    });
    return sum;
  };
  // Records each function; returns the lines of the named functions in the subtree that sit directly in the caller's
  // function (a named function nested in one is a named step of it; anonymous callbacks stay part of it).
  const visit = (node) => {
    if (!(FUNCTION_KINDS.has(node.kind) && node.body)) return sumOver(node);
    const start = lineOf(node.getStart(sourceFile, false));
    const lines = lineOf(node.getEnd()) - start + 1;
    const name = functionName(node, sourceFile);
    const entry = { file: relativeName, name, line: start + 1, lines, ownLines: lines, reason: reasonAbove(sourceLines, start) };
    found.push(entry);
    entry.ownLines -= sumOver(node);
    const named = name !== '(anonymous)' && !name.endsWith('(callback)');
    return named ? lines : lines - entry.ownLines;
  };
  visit(sourceFile);
  return found;
}

/**
 * Every function in the scanned folders with its length: `{ file, name, line, lines, ownLines, reason }`, `file` relative to the
 * repository. Parsing only (no imports resolved, no type-check), so it takes a second or two.
 */
export function scanFunctions(root = ROOT, folders = SCANNED) {
  // A project made up on the spot: every script file under the folders, each parsed on its own.
  const configPath = path.join(root, '.function-lengths.tsconfig.json');
  const config = JSON.stringify({
    compilerOptions: { allowJs: true, jsx: 'react-jsx', noResolve: true, noLib: true, types: [], noEmit: true },
    include: folders.flatMap((folder) => ['ts', 'tsx', 'mts', 'js', 'mjs'].map((ext) => `${folder}/**/*.${ext}`)),
    exclude: ['**/node_modules/**', '**/dist/**'],
  });
  const api = new API({
    cwd: root,
    fs: {
      readFile: (file) => (file === configPath ? config : undefined),
      fileExists: (file) => (file === configPath ? true : undefined),
    },
  });
  try {
    const project = api.updateSnapshot({ openProjects: [configPath] }).getProject(configPath);
    if (!project) throw new Error('the TypeScript API opened no project for the scan');
    const functions = [];
    for (const fileName of project.program.getSourceFileNames()) {
      const relativeName = path.relative(root, fileName).split(path.sep).join('/');
      if (relativeName.startsWith('..') || relativeName.includes('node_modules/') || relativeName.endsWith('.d.ts')) continue;
      const sourceFile = project.program.getSourceFile(fileName);
      if (sourceFile) functions.push(...functionsIn(sourceFile, relativeName));
    }
    return functions;
  } finally {
    api.close();
  }
}

/** The functions over the limit, longest first. */
export function longFunctions(functions, maxLines = MAX_LINES) {
  return functions.filter((f) => f.lines > maxLines).sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const limit = Number(process.argv[2] ?? MAX_LINES);
  const long = longFunctions(scanFunctions(), limit);
  for (const f of long)
    console.log(
      `${String(f.lines).padStart(4)} (${String(f.ownLines).padStart(3)} own)  ${f.file}:${f.line}  ${f.name}${f.reason ? `  (kept whole: ${f.reason})` : ''}`,
    );
  const unexplained = long.filter((f) => !f.reason).length;
  console.log(`${long.length} function(s) over ${limit} lines, ${unexplained} without a "${REASON_MARKER}" reason`);
}
