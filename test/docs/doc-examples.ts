import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The shell examples of README.md and docs/**.md, read as the doc test runs them: each fenced
 * `sh`/`bash`/`shell`/`console`/`http` block, split into commands, each command with what the doc
 * shows it answers (a status, an error code, a JSON shape). Pure: no I/O but reading the files.
 */

export const RUNNABLE_LANGUAGES = ['sh', 'bash', 'shell', 'console', 'http'];
const SKIP_MARKER = /^\s*<!--\s*doc-test:\s*skip\s*\((.*)\)\s*-->\s*$/;
const CONTINUES_MARKER = /^\s*<!--\s*doc-test:\s*continues\s+(\S+)\s*-->\s*$/;

export interface DocCommand {
  /** 1-based line in the doc file where the command starts. */
  line: number;
  text: string;
  expected: Expectation;
}

export interface Expectation {
  status?: number;
  code?: string;
  shape?: Shape;
  /** The doc's own words, for the failure message. */
  shown?: string;
  /** Set when the comment shows a JSON answer that cannot be read (the test fails on it). */
  unreadable?: string;
}

export interface DocBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  code: string;
  commands: DocCommand[];
  skip?: string;
}

export interface DocFile {
  file: string;
  blocks: DocBlock[];
  /** Another doc whose runnable blocks run first, in the same shell (`<!-- doc-test: continues README.md -->`). */
  continues?: string;
  /** Markers that are malformed: the test fails on each. */
  problems: string[];
}

/** README.md and every docs/**.md, relative to root, sorted. */
export function docFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).sort().flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...walk(join(root, 'docs')).map((p) => relative(root, p))];
}

export function readDoc(root: string, file: string): DocFile {
  return parseDoc(file, readFileSync(join(root, file), 'utf8'));
}

export function parseDoc(file: string, markdown: string): DocFile {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  const problems: string[] = [];
  let continues: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*<!--\s*doc-test/.test(line) && !SKIP_MARKER.test(line) && !CONTINUES_MARKER.test(line)) {
      problems.push(
        `${file}:${i + 1}: a doc-test marker must read <!-- doc-test: skip (the reason) --> `
          + `or <!-- doc-test: continues FILE -->: ${line.trim()}`,
      );
    }
    const skipReason = SKIP_MARKER.exec(line)?.[1].trim();
    if (skipReason === '') problems.push(`${file}:${i + 1}: a skip marker needs its reason in the parentheses`);
    if (SKIP_MARKER.test(line) && !/^\s*```/.test(lines[i + 1] ?? '')) {
      problems.push(`${file}:${i + 1}: a skip marker must be directly above a fenced block`);
    }
    const c = CONTINUES_MARKER.exec(line);
    if (c) continues = c[1];
    const fence = /^(\s*)(`{3,})\s*([\w-]*)/.exec(line);
    if (!fence) continue;
    const end = lines.findIndex((l, j) => j > i && l.trim().startsWith(fence[2]) && l.trim().replace(/`/g, '') === '');
    const close = end < 0 ? lines.length : end;
    const language = fence[3].toLowerCase();
    if (RUNNABLE_LANGUAGES.includes(language)) {
      const code = lines.slice(i + 1, close).map((l) =>
        l.slice(Math.min(fence[1].length, l.length - l.trimStart().length))
      ).join('\n');
      const marker = SKIP_MARKER.exec(lines[i - 1] ?? '');
      const commands = language === 'http'
        ? [httpCommand(code, i + 2)]
        : splitCommands(language === 'console' ? consoleAsShell(code) : code, i + 2);
      blocks.push({ file, line: i + 1, language, code, commands, ...(marker ? { skip: marker[1].trim() } : {}) });
    }
    i = close;
  }
  return { file, blocks, continues, problems };
}

/**
 * Splits shell code into commands at newlines outside quotes, `$( … )` and `\` continuations. A
 * command's expectation is read from its trailing comment and from comment lines directly below it
 * that start with `→`, a status (`# 201`, `# HTTP/1.1 403 Forbidden`) or a JSON value (`# {"id":…}`).
 */
export function splitCommands(code: string, firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  let single = false, double = false, depth = 0, start = 0, startLine = firstLine, line = firstLine, comment = '';
  let text = '';
  const flush = () => {
    const body = text.trim();
    if (body) commands.push({ line: startLine, text: body, expected: expectationOf(comment) });
    else if (comment && commands.length) {
      const last = commands[commands.length - 1];
      // the lines of a JSON answer shown over several comment lines read as one
      if (last.expected.unreadable) last.expected = expectationOf(`${last.expected.shown} ${comment.trim()}`);
      else if (EXPECTATION_START.test(comment.trim()) && !last.expected.shown) last.expected = expectationOf(comment);
    }
    text = '';
    comment = '';
  };
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '\n') {
      line++;
      if (!single && !double && depth === 0 && !text.endsWith('\\')) {
        flush();
        startLine = line;
        start = i + 1;
        continue;
      }
      text += ch;
      continue;
    }
    if (single) {
      if (ch === "'") single = false;
      text += ch;
      continue;
    }
    if (ch === '\\' && i + 1 < code.length) {
      text += ch + code[i + 1];
      if (code[i + 1] === '\n') line++;
      i++;
      continue;
    }
    if (double) {
      if (ch === '"') double = false;
      text += ch;
      continue;
    }
    if (ch === "'") single = true;
    else if (ch === '"') double = true;
    else if (ch === '$' && code[i + 1] === '(') depth++;
    else if (ch === ')' && depth > 0) depth--;
    else if (ch === '#' && (i === start || /\s/.test(code[i - 1]))) {
      const eol = code.indexOf('\n', i);
      comment = code.slice(i + 1, eol < 0 ? code.length : eol);
      i = (eol < 0 ? code.length : eol) - 1;
      continue;
    }
    text += ch;
  }
  flush();
  return commands;
}

/** A `console` block: `$ ` (and `> `) lines are the commands, the other lines what they print. */
export function consoleAsShell(code: string): string {
  return code.split('\n').map((l) => (/^[$>] /.test(l) ? l.slice(2) : l.trim() ? `# ${l}` : l)).join('\n');
}

/**
 * An `http` block: a request (`POST /2025-10-13/customers HTTP/1.1`, headers, a blank line, a body),
 * optionally followed by the response the doc shows (`HTTP/1.1 201 Created`, headers, a JSON body).
 * It runs as the equivalent curl, with the sandbox credentials unless it sends its own.
 */
export function httpCommand(code: string, firstLine: number): DocCommand {
  const lines = code.split('\n');
  const responseAt = lines.findIndex((l) => /^HTTP\/[\d.]+\s+\d{3}/.test(l));
  const request = (responseAt < 0 ? lines : lines.slice(0, responseAt)).join('\n').trim();
  const [head, ...rest] = request.split(/\n\s*\n/);
  const [requestLine, ...headers] = head.split('\n');
  const [method, target] = requestLine.trim().split(/\s+/);
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const url = target.startsWith('/') ? `http://localhost:8080${target}` : target;
  const auth = headers.some((h) => /^authorization:/i.test(h)) ? '' : ' -u "$AUTH"';
  const body = rest.join('\n\n').trim();
  const text = `curl -s -X ${method}${auth} ${quote(url)}${headers.map((h) => ` -H ${quote(h.trim())}`).join('')}${
    body ? ` --data-binary ${quote(body)}` : ''
  }`;
  const response = responseAt < 0 ? '' : lines.slice(responseAt).join('\n');
  const [statusLine, ...responseRest] = response.split('\n');
  const responseBody = responseRest.join('\n').split(/\n\s*\n/).slice(1).join('\n').trim();
  const status = /^HTTP\/[\d.]+\s+(\d{3})/.exec(statusLine)?.[1];
  return {
    line: firstLine,
    text,
    expected: status ? { ...expectationOf(`${status} ${responseBody}`.trim()), shown: response.trim() } : {},
  };
}

const EXPECTATION_START = /^(→|HTTP\/[\d.]+\s|[1-5]\d\d\b|\{|\[)/;

/** What a comment says a command answers; nothing when it is prose. */
export function expectationOf(comment: string): Expectation {
  let rest = comment.trim();
  if (!EXPECTATION_START.test(rest)) return {};
  const shown = rest;
  rest = rest.replace(/^→\s*/, '').replace(/^HTTP\/[\d.]+\s+/, '');
  const expectation: Expectation = { shown };
  const status = /^([1-5]\d\d)\b\s*/.exec(rest);
  if (status) {
    expectation.status = Number(status[1]);
    rest = rest.slice(status[0].length);
    const code = /^([A-Z][A-Z0-9_]{2,})\b/.exec(rest);
    if (code) expectation.code = code[1];
  }
  const json = /^[\s:,]*([{[])/.exec(expectation.code ? rest.slice(expectation.code.length) : rest);
  if (json) {
    const shape = parseShape((expectation.code ? rest.slice(expectation.code.length) : rest).slice(json[0].length - 1));
    if (shape !== undefined) expectation.shape = shape;
    else expectation.unreadable = `the JSON this comment shows cannot be read: ${shown}`;
  }
  return expectation;
}

/** A JSON value as a doc shows it: `…` (or `...`) stands for what is left out. */
export type Shape =
  | { kind: 'any' }
  | { kind: 'pattern'; text: string }
  | { kind: 'value'; value: number | boolean | null }
  | { kind: 'object'; members: Record<string, Shape> }
  | { kind: 'array'; items: Shape[] };

/** Reads the first JSON-like value of text; undefined when it is not one. */
export function parseShape(text: string): Shape | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const ellipsis = () => {
    ws();
    if (text.startsWith('…', i)) {
      i += 1;
      return true;
    }
    if (text.startsWith('...', i)) {
      i += 3;
      return true;
    }
    return false;
  };
  const str = (): string => {
    let out = '';
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        out += text[i + 1];
        i += 2;
      } else out += text[i++];
    }
    if (text[i] !== '"') throw new Error('unterminated string');
    i++;
    return out;
  };
  const value = (): Shape => {
    ws();
    if (ellipsis()) return { kind: 'any' };
    const ch = text[i];
    if (ch === '{') {
      i++;
      const members: Record<string, Shape> = {};
      for (;;) {
        ws();
        if (text[i] === '}') {
          i++;
          return { kind: 'object', members };
        }
        if (ellipsis()) {
          ws();
          if (text[i] === ',') i++;
          continue;
        }
        if (text[i] !== '"') throw new Error('expected a member name');
        const key = str();
        ws();
        if (text[i] !== ':') throw new Error('expected :');
        i++;
        members[key] = value();
        ws();
        if (text[i] === ',') i++;
      }
    }
    if (ch === '[') {
      i++;
      const items: Shape[] = [];
      for (;;) {
        ws();
        if (text[i] === ']') {
          i++;
          return { kind: 'array', items };
        }
        const item = value();
        if (item.kind !== 'any') items.push(item);
        ws();
        if (text[i] === ',') i++;
      }
    }
    if (ch === '"') return { kind: 'pattern', text: str() };
    const literal = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!literal) throw new Error(`unexpected ${JSON.stringify(text.slice(i, i + 10))}`);
    i += literal[0].length;
    return { kind: 'value', value: JSON.parse(literal[0]) };
  };
  try {
    return value();
  } catch {
    return undefined;
  }
}

/** Where actual differs from what the doc shows, or undefined when it fits. */
export function shapeMismatch(
  shape: Shape,
  actual: unknown,
  path = '$',
  rewrite: (text: string) => string = (t) => t,
): string | undefined {
  switch (shape.kind) {
    case 'any':
      return undefined;
    case 'value':
      return actual === shape.value
        ? undefined
        : `${path}: the doc shows ${JSON.stringify(shape.value)}, the answer has ${JSON.stringify(actual)}`;
    case 'pattern': {
      const pattern = new RegExp(
        `^${
          rewrite(shape.text).split(/…|\.\.\.|<[^<>]*>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('[\\s\\S]*')
        }$`,
      );
      const text = typeof actual === 'string' ? actual : typeof actual === 'number' ? String(actual) : undefined;
      return text !== undefined && pattern.test(text)
        ? undefined
        : `${path}: the doc shows ${JSON.stringify(rewrite(shape.text))}, the answer has ${JSON.stringify(actual)}`;
    }
    case 'object': {
      if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
        return `${path}: the doc shows an object, the answer has ${JSON.stringify(actual)}`;
      }
      for (const [key, member] of Object.entries(shape.members)) {
        if (!(key in actual)) return `${path}.${key}: the doc shows this member, the answer has none`;
        const problem = shapeMismatch(member, (actual as Record<string, unknown>)[key], `${path}.${key}`, rewrite);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'array': {
      if (!Array.isArray(actual)) return `${path}: the doc shows an array, the answer has ${JSON.stringify(actual)}`;
      for (const [index, item] of shape.items.entries()) {
        if (!actual.some((a) => shapeMismatch(item, a, path, rewrite) === undefined)) {
          return `${path}[${index}]: no element of the answer fits the doc's (${
            shapeMismatch(item, actual[index], `${path}[${index}]`, rewrite) ?? 'missing'
          })`;
        }
      }
      return undefined;
    }
  }
}
