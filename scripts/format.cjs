#!/usr/bin/env node
// The code formatter: dprint's TypeScript/JavaScript formatter (dprint-node, a native addon: no download, no network),
// configured by dprint.json at the repository root (line width 120), then scripts/wrap-comments.cjs for the comments
// that dprint leaves longer than the width.
//
//   node scripts/format.cjs            formats every file dprint.json includes, in place (`npm run format`)
//   node scripts/format.cjs --check    changes nothing; lists the files that are not formatted and exits 1
//                                      (`npm run format:check`, run early by `npm test`)
//   node scripts/format.cjs FILE...    formats only the files named (either mode)
// Either mode then lists each line still longer than the width in a hand-written text file of any kind, as FILE:LINE
// (scripts/line-width.cjs says which files are exempt: Markdown, package-lock.json, generated code); --check exits 1
// on any.
//
// Files: those git tracks or would track (so .gitignore's build output stays out), less dprint.json's "excludes";
// outside a git checkout, every file under the root less the excludes.
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync, readdirSync, writeFileSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');
const dprint = require('dprint-node');
const { wrapComments } = require('./wrap-comments.cjs');
const { longLines } = require('./line-width.cjs');

const ROOT = join(__dirname, '..');
const FIX = 'npm run format';

function readConfig() {
  const config = JSON.parse(readFileSync(join(ROOT, 'dprint.json'), 'utf8'));
  const { typescript, includes, excludes, ...global } = config;
  const pattern = /^\*\*\/\*\.\{([a-z,]+)\}$/.exec(includes.length === 1 ? includes[0] : '');
  if (!pattern) throw new Error('dprint.json: "includes" must be one pattern of the form **/*.{ext,ext,...}');
  return { options: { ...global, ...typescript }, extensions: pattern[1].split(','), excludes };
}

/** An exclude is a path from the root ("gen") or, written "**\/name", a folder or file name anywhere. */
function excluded(file, excludes) {
  const parts = file.split('/');
  return excludes.some((pattern) => {
    if (pattern.startsWith('**/')) return parts.includes(pattern.slice(3));
    return file === pattern || file.startsWith(`${pattern.replace(/\/$/, '')}/`);
  });
}

function candidateFiles(excludes) {
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return listed.split('\0').filter((file) => file && existsSync(join(ROOT, file)));
  } catch {
    const files = [];
    const walk = (dir) => {
      for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.name === '.git' || excluded(path, excludes)) continue;
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile()) files.push(path);
      }
    };
    walk('');
    return files;
  }
}

function filesToFormat(config, named) {
  const wanted = (file) =>
    config.extensions.some((ext) => file.endsWith(`.${ext}`)) && !excluded(file, config.excludes);
  if (named.length) return named.map((file) => relative(ROOT, resolve(file))).filter(wanted);
  return candidateFiles(config.excludes).filter(wanted).sort();
}

/** Every file whose line width is checked, whatever its kind: those named, or all but dprint.json's "excludes". */
function filesToMeasure(config, named) {
  const files = named.length ? named.map((file) => relative(ROOT, resolve(file))) : candidateFiles(config.excludes);
  return files.filter((file) => !excluded(file, config.excludes)).sort();
}

/**
 * dprint, then the comments it leaves too long wrapped (scripts/wrap-comments.cjs), until the text stops changing:
 * dprint sometimes breaks a line further on a second pass, and a comment moved above its line may change its layout.
 */
function formatToFixedPoint(file, text, options) {
  let current = text;
  for (let pass = 0; pass < 5; pass++) {
    const next = wrapComments(file, dprint.format(file, current, options), options.lineWidth);
    if (next === current) return current;
    current = next;
  }
  throw new Error('the formatter gives a different text on every pass');
}

function main(args) {
  const check = args.includes('--check');
  const named = args.filter((arg) => arg !== '--check');
  const config = readConfig();
  const unformatted = [];
  const failed = [];
  for (const file of filesToFormat(config, named)) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    let formatted;
    try {
      formatted = formatToFixedPoint(file, text, config.options);
    } catch (err) {
      failed.push(`${file}: ${String(err.message ?? err).split('\n')[0]}`);
      continue;
    }
    if (formatted === text) continue;
    unformatted.push(file);
    if (!check) writeFileSync(join(ROOT, file), formatted);
  }
  if (failed.length) {
    console.error(`format: ${failed.length} file(s) could not be parsed:\n  ${failed.join('\n  ')}`);
    process.exitCode = 2;
  }
  if (check && unformatted.length) {
    console.error(
      `format: ${unformatted.length} file(s) not formatted (dprint.json):\n  ${unformatted.join('\n  ')}\n`
        + `Run \`${FIX}\` to format them.`,
    );
    process.exitCode ||= 1;
  } else if (!check && unformatted.length) {
    console.log(`format: ${unformatted.length} file(s) formatted`);
  }
  const width = config.options.lineWidth;
  const long = longLines(ROOT, filesToMeasure(config, named), width);
  if (long.length) {
    console.error(
      `format: ${long.length} line(s) longer than ${width} characters (dprint.json lineWidth), to break by hand:\n  `
        + long.join('\n  '),
    );
    if (check) process.exitCode ||= 1;
  }
}

main(process.argv.slice(2));
