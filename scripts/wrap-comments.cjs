// Wraps comments that run past the line width, the one thing the code formatter leaves long (scripts/format.cjs
// runs it after dprint). Only comments the TypeScript parser reports are touched, never code, strings or templates:
//   - a `//` comment after code moves to its own line(s) above that line;
//   - a `//` comment line, or a line inside a `/* */` comment, breaks at the last space that fits, and the rest of it
//     opens the next line of the same paragraph (or a new line when the paragraph ends there);
//   - a one-line `/** ... */` too long becomes a block of ` * ` lines.
// A word longer than the width (a URL) stays whole. Lines of `//` directives (@ts-..., eslint-..., dprint-ignore)
// and triple-slash references are left as they are.
const ts = require('typescript');

const DIRECTIVE = /^\/\/\/|^\/\/\s*(@ts-|eslint-|dprint-ignore|#)/;

const width = (line) => [...line].length;

/** Every comment in the file, as [pos, end) ranges, from the leading and trailing trivia of every token. */
function commentRanges(source) {
  const text = source.text;
  const seen = new Map();
  const add = (ranges) => ranges?.forEach((r) => seen.set(r.pos, r));
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.JsxText) return;
    if (node.kind < ts.SyntaxKind.FirstNode) {
      add(ts.getTrailingCommentRanges(text, node.pos));
      add(ts.getLeadingCommentRanges(text, node.pos));
      return;
    }
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...seen.values()].sort((a, b) => a.pos - b.pos);
}

/** The spans of string, template and JSX text tokens, inside which a line start must not receive a comment. */
function literalSpans(source) {
  const spans = [];
  const visit = (node) => {
    if (
      ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || node.kind === ts.SyntaxKind.JsxText
      || node.kind === ts.SyntaxKind.RegularExpressionLiteral
    ) {
      spans.push([node.getStart(source), node.end]);
    }
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return spans;
}

/** Splits `text` into pieces that fit `room` columns, breaking at spaces; a word wider than `room` stays whole. */
function breakAt(text, room) {
  if (width(text) <= room) return [text, ''];
  const chars = [...text];
  let cut = -1;
  for (let i = Math.min(room, chars.length - 1); i > 0; i--) {
    if (chars[i] === ' ') {
      cut = i;
      break;
    }
  }
  if (cut <= 0) return [text, ''];
  const head = chars.slice(0, cut).join('').trimEnd();
  if (!head) return [text, ''];
  return [head, chars.slice(cut + 1).join('').trimStart()];
}

/** A line that starts its own paragraph: blank, a list item, a tag, or indented further (code, a table). */
const startsParagraph = (body) => body === '' || /^(\s|[-*•+] |\d+[.)] |@|```|\|)/.test(body);

/**
 * The lines (each `prefix + body`) with every body that does not fit broken: its end opens the next line of its
 * paragraph (same prefix, not a paragraph start), or a new line.
 */
function wrapLines(lines, limit) {
  const out = [];
  const queue = lines.map((line) => ({ ...line }));
  for (let i = 0; i < queue.length; i++) {
    const line = queue[i];
    const [head, rest] = breakAt(line.body, limit - width(line.prefix));
    out.push(line.prefix + (rest ? head : line.body));
    if (!rest) continue;
    const hang = line.hang ?? /^([-*•+] |\d+[.)] )/.exec(line.body)?.[1].replace(/./g, ' ') ?? '';
    const next = queue[i + 1];
    if (next && next.prefix === line.continuation && !startsParagraph(next.body)) {
      next.body = `${rest} ${next.body}`;
      next.hang = hang;
    } else {
      queue.splice(i + 1, 0, { prefix: line.continuation, continuation: line.continuation, body: hang + rest, hang });
    }
  }
  return out;
}

/** A `//` comment on its own line as a line to wrap, or as a fixed line (a directive). */
function slashLine(comment, indent) {
  if (DIRECTIVE.test(comment)) return { prefix: indent + comment, body: '', fixed: true };
  const lead = /^\/\/ ?/.exec(comment)[0];
  return { prefix: indent + lead, continuation: indent + lead, body: comment.slice(lead.length) };
}

/**
 * A `/* *\/` comment, its first line at `indent`, as lines to wrap (` * ` rows) and fixed lines (the rest). A one-line
 * comment becomes a block; a last row too long, `* text *\/`, gives its `*\/` a row of its own.
 */
function blockLines(comment, indent, limit) {
  const rows = (indent + comment).split('\n');
  if (rows.length === 1) {
    const m = /^(\/\*\*?)\s+(.*?)\s*\*\/$/.exec(comment);
    if (!m) return [{ prefix: rows[0], body: '', fixed: true }];
    return [
      { prefix: `${indent}${m[1]}`, body: '', fixed: true },
      { prefix: `${indent} * `, continuation: `${indent} * `, body: m[2] },
      { prefix: `${indent} */`, body: '', fixed: true },
    ];
  }
  return rows.flatMap((row, i) => {
    const last = i === rows.length - 1;
    const inner = i > 0 && (!last || width(row) > limit) && /^(\s*\* ?)(.*?)(\s*\*\/)?$/.exec(row);
    if (!inner || (inner[2] === '' && inner[3])) return [{ prefix: row, body: '', fixed: true }];
    const line = { prefix: inner[1], continuation: inner[1], body: inner[2] };
    return inner[3] ? [line, { prefix: `${inner[1].trimEnd()}/`, body: '', fixed: true }] : [line];
  });
}

/** The lines wrapped to `limit` columns, each run of wrappable lines as paragraphs; fixed lines stay as they are. */
function wrapAll(lines, limit) {
  const out = [];
  let run = [];
  const flush = () => {
    if (run.length) out.push(...wrapLines(run, limit));
    run = [];
  };
  for (const line of lines) {
    if (line.fixed) {
      flush();
      out.push(line.prefix);
    } else {
      run.push(line);
    }
  }
  flush();
  return out.join('\n');
}

/**
 * The comments to consider: a run of `//` lines with the same indentation, a block comment on its own lines, or a `//`
 * comment after code. Each unit knows the text it replaces, [pos, end), which starts at a line start.
 */
function commentUnits(text, ranges) {
  const units = [];
  for (const range of ranges) {
    const lineStart = text.lastIndexOf('\n', range.pos - 1) + 1;
    const newline = text.indexOf('\n', range.end);
    const lineEnd = newline === -1 ? text.length : newline;
    const before = text.slice(lineStart, range.pos);
    if (text.slice(range.end, lineEnd).trim() !== '') continue;
    const comment = text.slice(range.pos, range.end);
    const slash = range.kind === ts.SyntaxKind.SingleLineCommentTrivia;
    if (before.trim() !== '') {
      if (slash) {
        units.push({ kind: 'after-code', pos: lineStart, end: range.end, indent: /^\s*/.exec(before)[0], comment });
      }
      continue;
    }
    const last = units.at(-1);
    if (slash && last?.kind === 'slashes' && text.slice(last.end, range.pos) === `\n${before}`) {
      last.comments.push(comment);
      last.end = range.end;
    } else if (slash) {
      units.push({ kind: 'slashes', pos: lineStart, end: range.end, indent: before, comments: [comment] });
    } else {
      units.push({ kind: 'block', pos: lineStart, end: range.end, indent: before, comment });
    }
  }
  return units;
}

/** The text with its overlong comments wrapped to `limit` columns. */
function wrapComments(fileName, text, limit) {
  if (!text.split('\n').some((line) => width(line) > limit)) return text;
  const kind = /\.[cm]?tsx$|\.jsx$/.test(fileName)
    ? ts.ScriptKind.TSX
    : /\.[cm]?js$/.test(fileName)
    ? ts.ScriptKind.JS
    : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const ranges = commentRanges(source);
  const covered = [...literalSpans(source), ...ranges.map((r) => [r.pos, r.end])];
  const inside = (pos) => covered.some(([start, end]) => start < pos && pos < end);
  const edits = [];
  for (const unit of commentUnits(text, ranges)) {
    const original = text.slice(unit.pos, unit.end);
    if (!original.split('\n').some((line) => width(line) > limit)) continue;
    let wrapped;
    if (unit.kind === 'slashes') {
      wrapped = wrapAll(unit.comments.map((c) => slashLine(c, unit.indent)), limit);
    } else if (unit.kind === 'block') {
      wrapped = wrapAll(blockLines(unit.comment, unit.indent, limit), limit);
    } else {
      // A comment after code goes on its own line(s) above that line.
      if (DIRECTIVE.test(unit.comment) || inside(unit.pos)) continue;
      const code = text.slice(unit.pos, unit.end - unit.comment.length).trimEnd();
      wrapped = `${wrapAll([slashLine(unit.comment, unit.indent)], limit)}\n${code}`;
    }
    if (wrapped !== original) edits.push({ ...unit, text: wrapped });
  }
  let result = text;
  for (const edit of edits.sort((a, b) => b.pos - a.pos)) {
    result = result.slice(0, edit.pos) + edit.text + result.slice(edit.end);
  }
  return result;
}

module.exports = { wrapComments };
