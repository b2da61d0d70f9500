/**
 * The shell examples of the docs, as the doc-examples test reads them.
 *
 * Conventions (written for humans first; the test relies on nothing else):
 * - A fenced block whose language is `sh`, `bash` or `shell` and that calls `curl` is an example
 *   block: it runs, in order with the file's other example blocks, in one shell, so a variable set
 *   by an earlier block (`ACCESS=$(curl … | jq -r .access)`) is there for later ones.
 * - `# → 201 …` (or `# -> 201`) right after a command, or at the end of its last line, is the
 *   status that command answers, and a `"code":"…"` shown there its problem code; without an
 *   arrow, the command must answer below 400. Other figures shown are not checked.
 * - ```` ```sh no-run: <reason> ```` keeps a block from running (a real gateway, an external
 *   service); the reason is required. Shell blocks without curl (`npm start`) are not examples.
 */

export interface ShellBlock {
  file: string;
  /** 1-based line in the Markdown file of the block's first code line. */
  line: number;
  lines: string[];
  /** Set when the block is marked `no-run: <reason>`; an empty string when the reason is missing. */
  noRunReason?: string;
}

export interface ShellCommand {
  /** 1-based Markdown lines of the command's first and last line (continuations, quoted newlines). */
  startLine: number;
  endLine: number;
  text: string;
  callsCurl: boolean;
  /** The status an arrow comment announces (`# → 404 …`). */
  expectedStatus?: number;
  /** The problem code an arrow comment shows (`# → 409 {"code":"email_taken",…}`). */
  expectedCode?: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*(.*)$/;
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);
const CURL = /(^|[\s;|&(`!])curl(\s|$)/;
const ARROW = /^(?:→|->)\s*(\d{3})\b/;
const CODE = /"code"\s*:\s*"([a-z0-9_]+)"/;

function expectation(comment: string): Pick<ShellCommand, 'expectedStatus' | 'expectedCode'> {
  const arrow = ARROW.exec(comment);
  if (!arrow) return {};
  const code = CODE.exec(comment)?.[1];
  return { expectedStatus: Number(arrow[1]), ...(code ? { expectedCode: code } : {}) };
}

/** Every fenced shell block of a Markdown file, whether it calls curl or not. */
export function shellBlocks(file: string, markdown: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '', info = ''] = open;
    const closing = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !closing.test(lines[end] ?? '')) end += 1;
    const [language = '', ...rest] = info.trim().split(/\s+/);
    if (SHELL_LANGUAGES.has(language.toLowerCase())) {
      const code = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()));
      const marker = /^no-run\b:?\s*(.*)$/.exec(rest.join(' '));
      blocks.push({ file, line: i + 2, lines: code, ...(marker ? { noRunReason: (marker[1] ?? '').trim() } : {}) });
    }
    i = end;
  }
  return blocks;
}

/**
 * The block's commands, a command being a line with its continuations: a trailing backslash, an
 * open quote or an open parenthesis (`$(`) carries it onto the next line. Only as much shell as
 * telling commands apart needs; the shell itself runs them.
 */
export function shellCommands(block: ShellBlock): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let current: { startLine: number; parts: string[]; comment: string } | null = null;
  let quote: "'" | '"' | null = null;
  let depth = 0;
  // A character-by-character scanner of shell (quotes, escapes, `$(` depth, comments): one loop reads best.
  // biome-ignore lint/complexity/noExcessiveCognitiveComplexity: a scanner's state machine, kept whole.
  block.lines.forEach((line, index) => {
    const lineNo = block.line + index;
    let code = '';
    let comment = '';
    let continued = false;
    for (let c = 0; c < line.length; c += 1) {
      const ch = line[c];
      if (quote === "'") {
        if (ch === "'") quote = null;
      } else if (ch === '\\') {
        if (c === line.length - 1) {
          continued = true;
          break;
        }
        code += ch;
        c += 1;
        code += line[c];
        continue;
      } else if (quote === '"') {
        if (ch === '"') quote = null;
      } else if (ch === "'" || ch === '"') {
        quote = ch;
      } else if (ch === '#' && (c === 0 || /\s/.test(line[c - 1] ?? ''))) {
        comment = line.slice(c + 1).trim();
        break;
      } else if (ch === '(') {
        depth += 1;
      } else if (ch === ')' && depth > 0) {
        depth -= 1;
      }
      code += ch;
    }
    if (code.trim() === '' && current === null) {
      // A comment line: an arrow here tells the status of the command just before it.
      const previous = commands.at(-1);
      if (previous && previous.expectedStatus === undefined) Object.assign(previous, expectation(comment));
      return;
    }
    current ??= { startLine: lineNo, parts: [], comment: '' };
    current.parts.push(code);
    if (comment) current.comment = comment;
    if (continued || quote !== null || depth > 0) return;
    const text = current.parts.join('\n');
    commands.push({
      startLine: current.startLine,
      endLine: lineNo,
      text,
      callsCurl: CURL.test(text),
      ...expectation(current.comment),
    });
    current = null;
  });
  if (current !== null) {
    const unfinished: { startLine: number; parts: string[] } = current;
    commands.push({
      startLine: unfinished.startLine,
      endLine: block.line + block.lines.length - 1,
      text: unfinished.parts.join('\n'),
      callsCurl: CURL.test(unfinished.parts.join('\n')),
    });
  }
  return commands;
}

/** Whether a block is an example: a shell block that calls curl. */
export function isExampleBlock(block: ShellBlock): boolean {
  return shellCommands(block).some((c) => c.callsCurl);
}
